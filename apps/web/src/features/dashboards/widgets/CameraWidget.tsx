import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useCamera } from '../../video/api.ts';
import { LiveTile, RecordingPlayer } from '../../video/index.ts';
import { cameraModeFor, useSelectedRange } from '../range-sync.ts';

/**
 * A camera tile: live by default; while a range is selected on a chart of the dashboard, the recording of that
 * range (the page shows the "Back to live" control).
 */
export function CameraWidget({ cameraId, title }: { cameraId: number | null; title: string }) {
  const range = useSelectedRange();
  const camera = useCamera(cameraId ?? 0);
  const label = title || camera.data?.label || 'Camera';
  if (!cameraId) {
    return (
      <Typography color="text.secondary" sx={{ p: 2 }}>
        No camera chosen
      </Typography>
    );
  }
  const mode = cameraModeFor(range);
  return (
    <Box sx={{ height: '100%', minHeight: 0 }} data-testid={`dashboard-camera-${cameraId}`} data-mode={mode.kind}>
      {mode.kind === 'live' ? (
        <LiveTile cameraId={cameraId} label={label} />
      ) : (
        <RecordingPlayer key={`${mode.from}|${mode.to}`} cameraId={cameraId} label={label} from={mode.from} to={mode.to} height={140} />
      )}
    </Box>
  );
}
