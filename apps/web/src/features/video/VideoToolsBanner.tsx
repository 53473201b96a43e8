import Alert from '@mui/material/Alert';
import { useVideoTools } from './api.ts';

/** Shown over the video screens when the server has no ffmpeg: what to install, once, instead of empty players. */
export function VideoToolsBanner() {
  const tools = useVideoTools();
  const message = tools.data?.message;
  if (!message) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="video-tools-banner">
      {message}
    </Alert>
  );
}
