import CloseIcon from '@mui/icons-material/Close';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { CAMERA_CONSTANTS, VIDEO_MESSAGES } from '@sitewatch/contracts/video';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toasts.ts';
import { startLiveView, stopLiveView } from './api.ts';
import { LivePlayer } from './MsePlayer.tsx';

/** Asks for the live stream while mounted and releases it (DELETE live-view) when it goes away. */
export function useLiveStream(cameraId: number) {
  const [url, setUrl] = useState<string | null>(null);
  const [wsUrl, setWsUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    setUrl(null);
    setWsUrl(null);
    setError(null);
    startLiveView(cameraId)
      .then((r) => {
        if (!active) return;
        setWsUrl(r.wsUrl);
        setUrl(r.url);
      })
      .catch((e: Error) => active && setError(e.message));
    return () => {
      active = false;
      void stopLiveView(cameraId).catch(() => undefined);
    };
  }, [cameraId]);
  return { url, wsUrl, error };
}

/** Copies a text; the label says 'Copied' for 1.2 s (SPEC 9), or 'Failed To Copy!' is shown. */
export function useCopy() {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), CAMERA_CONSTANTS.copyLabelResetMs);
    } catch {
      toast.error(VIDEO_MESSAGES.copyFailed);
    }
  };
  return { copied, copy };
}

/** One live camera: video, name, copy URL, full screen and (in a grid) remove. */
export function LiveTile({
  cameraId,
  label,
  onRemove,
  height = '100%',
}: {
  cameraId: number;
  label: string;
  onRemove?: () => void;
  height?: number | string;
}) {
  const { url, wsUrl, error } = useLiveStream(cameraId);
  const [playError, setPlayError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const { copied, copy } = useCopy();
  return (
    <Box
      ref={box}
      data-testid={`live-tile-${cameraId}`}
      sx={{ position: 'relative', height, minHeight: 120, bgcolor: '#000', borderRadius: 1, overflow: 'hidden' }}
    >
      {url ? <LivePlayer hlsUrl={url} wsUrl={wsUrl} testId={`live-video-${cameraId}`} onError={setPlayError} /> : null}
      {error || playError ? (
        <Typography
          color="error.light"
          sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', p: 2, textAlign: 'center' }}
        >
          {error ?? 'The camera is not streaming'}
        </Typography>
      ) : null}
      <Box
        sx={{
          position: 'absolute',
          top: 0,
          left: 0,
          right: 0,
          display: 'flex',
          alignItems: 'center',
          px: 1,
          bgcolor: 'rgba(0,0,0,0.45)',
          color: '#fff',
        }}
      >
        <Typography variant="body2" noWrap sx={{ flex: 1 }}>
          {label}
        </Typography>
        <Tooltip title={copied ? VIDEO_MESSAGES.copied : VIDEO_MESSAGES.copyUrl}>
          <IconButton
            size="small"
            aria-label={copied ? VIDEO_MESSAGES.copied : VIDEO_MESSAGES.copyUrl}
            sx={{ color: '#fff' }}
            onClick={() => void copy(new URL(url ?? `/api/cameras/${cameraId}/live.m3u8`, window.location.origin).toString())}
          >
            <ContentCopyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Full screen">
          <IconButton
            size="small"
            aria-label="Full screen"
            sx={{ color: '#fff' }}
            onClick={() => void box.current?.requestFullscreen?.().catch(() => undefined)}
          >
            <FullscreenIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        {onRemove ? (
          <Tooltip title="Remove from grid">
            <IconButton size="small" aria-label={`Remove ${label}`} sx={{ color: '#fff' }} onClick={onRemove}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
      </Box>
    </Box>
  );
}
