import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { LINK_TOKEN_HEADER, sharedCameraPlaylistPath } from '@sitewatch/contracts/dashboards';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { useMemo, useState } from 'react';
import { useCamera } from '../../video/api.ts';
import { HlsPlayer } from '../../video/HlsPlayer.tsx';
import { LiveTile, RecordingPlayer } from '../../video/index.ts';
import { cameraModeFor, useSelectedRange } from '../range-sync.ts';

/**
 * A camera tile: live by default; while a range is selected on a chart of the dashboard, the recording of that
 * range (the page shows the "Back to live" control).
 */
export function CameraWidget({ cameraId, title }: { cameraId: number | null; title: string }) {
  const range = useSelectedRange();
  const camera = useCamera(cameraId ?? 0);
  const label = title || (camera.data ? nameWithSite(camera.data.label, camera.data.siteName) : 'Camera');
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

/**
 * A camera tile of a shared link: live video through the link's own playlist and media, the token in a header of
 * every request (verified each time, no session); the camera's stream address never reaches the page.
 */
export function SharedCameraTile({
  dashboardId,
  token,
  widgetId,
  cameraId,
  name,
}: {
  dashboardId: number;
  token: string;
  widgetId: string;
  cameraId: number;
  name: string;
}) {
  const [error, setError] = useState<string | null>(null);
  const headers = useMemo(() => ({ [LINK_TOKEN_HEADER]: token }), [token]);
  return (
    <Box
      data-testid={`dashboard-camera-${cameraId}`}
      data-mode="live"
      sx={{ position: 'relative', height: '100%', minHeight: 120, bgcolor: '#000', borderRadius: 1, overflow: 'hidden' }}
    >
      <HlsPlayer
        src={sharedCameraPlaylistPath(dashboardId, widgetId)}
        requestHeaders={headers}
        live
        testId={`shared-video-${cameraId}`}
        onError={setError}
      />
      {error ? (
        <Typography
          color="error.light"
          sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', p: 2, textAlign: 'center' }}
        >
          The camera is not streaming
        </Typography>
      ) : null}
      <Typography
        variant="body2"
        noWrap
        sx={{ position: 'absolute', top: 0, left: 0, right: 0, px: 1, py: 0.5, bgcolor: 'rgba(0,0,0,0.45)', color: '#fff' }}
      >
        {name}
      </Typography>
    </Box>
  );
}
