import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { nameWithSite } from '@sitewatch/contracts/sites';
import { Link } from 'react-router';
import { hasRole, useUser } from '../../lib/session.ts';
import { useCamera } from './api.ts';
import { LiveTile } from './LiveTile.tsx';
import { Snapshot } from './Snapshot.tsx';

const CONFIG_ROLES = ['sysadmin', 'customeradmin', 'localadmin', 'infraadmin'];

/**
 * The camera of a CAMERA device page: its live view (started on demand, released when the page closes) and its
 * latest snapshot, with the way to the CCTV view and (administrators) its configs. Shown to users who may view
 * cameras.
 */
export function DeviceCameraPanel({ deviceId }: { deviceId: number }) {
  const camera = useCamera(deviceId);
  const admin = hasRole(useUser(), ...CONFIG_ROLES);
  const c = camera.data;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="device-camera">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1, fontSize: 16 }}>
          Camera
        </Typography>
        {c?.configured ? (
          <Button size="small" component={Link} to={`/cctv/view/${deviceId}`}>
            Open in CCTV
          </Button>
        ) : null}
        {admin ? (
          <Button size="small" component={Link} to={`/cameras/${deviceId}/configs`}>
            Configs
          </Button>
        ) : null}
      </Box>
      {camera.isLoading ? (
        <Typography variant="body2" color="text.secondary">
          Loading…
        </Typography>
      ) : camera.isError || !c ? (
        <Typography variant="body2" color="text.secondary">
          The camera could not be loaded.
        </Typography>
      ) : !c.configured ? (
        <Typography variant="body2" color="text.secondary">
          No stream is configured for this camera yet{admin ? ': set its stream URL in Configs.' : '.'}
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' }, alignItems: 'start' }}>
          <Box>
            <Typography variant="caption" color="text.secondary">
              Live
            </Typography>
            <LiveTile cameraId={deviceId} label={nameWithSite(c.label, c.siteName)} height={300} />
          </Box>
          <Box>
            <Typography variant="caption" color="text.secondary">
              Snapshot
            </Typography>
            <Snapshot cameraId={deviceId} alt={`Snapshot of ${c.label}`} height={180} />
          </Box>
        </Box>
      )}
    </Paper>
  );
}
