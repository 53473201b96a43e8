import Alert from '@mui/material/Alert';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format.ts';
import { useDeviceWindow } from './api.ts';

/** On a device page: maintenance mode comes from a maintenance window (its name, until when). */
export function MaintenanceWindowNote({ deviceId }: { deviceId: number }) {
  const window = useDeviceWindow(deviceId);
  const w = window.data?.window;
  if (!w) return null;
  return (
    <Alert severity="info" data-testid="maintenance-window-note" sx={{ mb: 2 }}>
      In maintenance for the window <Link to={`/calendar/${w.eventId}/edit`}>{w.title}</Link> until {formatDateTime(w.until)}.
    </Alert>
  );
}
