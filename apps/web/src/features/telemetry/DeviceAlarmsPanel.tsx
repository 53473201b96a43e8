import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { ALARM_STATUS_COLOURS, type AlarmStatus } from '@sitewatch/contracts/devices';
import { useStatusColours } from '../../components/useStatusColours.ts';
import { can } from '../../lib/access.ts';
import { filledChip } from '../../lib/contrast.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useUser } from '../../lib/session.ts';
import { CameraAtEventButton } from '../video/CameraAtEventButton.tsx';
import { AlarmTicketAction } from './AlarmTicketAction.tsx';
import { useAlarms } from './api.ts';

/**
 * The alarm a ticket was raised for, marked by a bar at its start on a light tint: the selected row's tint would leave
 * the ticket link under AA in the dark theme (4.4:1).
 */
const HIGHLIGHT = { bgcolor: 'action.hover', borderLeft: 3, borderColor: 'primary.main', borderRadius: 1, px: 1 } as const;

export function SeverityChip({ severity, cleared }: { severity: string; cleared?: boolean }) {
  const colour = ALARM_STATUS_COLOURS[severity as AlarmStatus] ?? '#4F6F77';
  const colours = useStatusColours();
  return (
    <Chip
      size="small"
      label={severity}
      variant={cleared ? 'outlined' : 'filled'}
      sx={cleared ? { borderColor: colours.text(colour), color: colours.text(colour) } : filledChip(colour)}
    />
  );
}

/** The latest alarms of one device, newest first, each with its ticket (`highlight`: the alarm a ticket was raised from). */
export function DeviceAlarmsPanel({ deviceId, highlight }: { deviceId: number; highlight?: number }) {
  const alarms = useAlarms({ deviceId, page: 1, limit: 10 });
  const seesCameras = can(useUser(), 'view_camera');
  const rows = alarms.data?.contents ?? [];
  if (rows.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {alarms.isLoading ? 'Loading…' : 'No alarms.'}
      </Typography>
    );
  }
  return (
    <List dense disablePadding data-testid="device-alarms">
      {rows.map((a) => (
        <ListItem
          key={a.id}
          disableGutters
          data-testid={a.id === highlight ? 'ticket-alarm' : 'device-alarm'}
          sx={{ pr: seesCameras ? 14 : 10, ...(a.id === highlight ? HIGHLIGHT : {}) }}
          secondaryAction={
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              {seesCameras ? <CameraAtEventButton deviceId={a.deviceId} at={a.raisedAt} /> : null}
              <SeverityChip severity={a.severity} cleared={a.state === 'CLEARED'} />
            </Box>
          }
        >
          <ListItemText
            primary={a.message}
            secondary={
              <>
                {`${a.state === 'ACTIVE' ? 'Active' : 'Cleared'} · raised ${formatDateTime(a.raisedAt)}${a.clearedAt ? ` · cleared ${formatDateTime(a.clearedAt)}` : ''}${a.suppressedBy ? ` · ${a.suppressedBy}` : ''}`}
                <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
                  <AlarmTicketAction alarm={a} />
                </Box>
              </>
            }
            slotProps={{ secondary: { component: 'div' } }}
          />
        </ListItem>
      ))}
    </List>
  );
}
