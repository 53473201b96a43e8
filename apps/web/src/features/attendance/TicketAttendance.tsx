import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { ATTENDANCE_PERMISSIONS } from '@sitewatch/contracts/attendance';
import type { Ticket } from '@sitewatch/contracts/helpdesk';
import { formatDateTime } from '../../lib/format.ts';
import { permissionsOf, useUser } from '../../lib/session.ts';
import { useTicketAttendance } from './api.ts';
import { CheckInPanel } from './CheckInPanel.tsx';

/**
 * SPEC 2.15 "mark attendance" on the ticket view: check in and out at the ticket's site with the same geofenced
 * records as the check-in screen, and the visits recorded for this ticket.
 */
export function TicketAttendance({ ticket }: { ticket: Ticket }) {
  const permissions = permissionsOf(useUser());
  const mayRead = permissions.has(ATTENDANCE_PERMISSIONS.add) || permissions.has(ATTENDANCE_PERMISSIONS.view);
  const visits = useTicketAttendance(ticket.id, mayRead);
  const site = ticket.locationId ? { id: ticket.locationId, name: ticket.additionalInformation?.assetLabel ?? 'the ticket site' } : null;
  const earlier = ticket.attendance ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="attendance-section">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }} gutterBottom>
        Attendance
      </Typography>
      {site ? (
        <CheckInPanel site={site} ticketId={ticket.id} compact />
      ) : (
        <Typography variant="body2" color="text.secondary">
          This ticket has no site, so attendance cannot be marked here. <Link href="/attendance">Open the check-in screen</Link>
        </Typography>
      )}
      {(visits.data?.contents.length ?? 0) + earlier.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Nobody has marked attendance yet.
        </Typography>
      ) : (
        <Box sx={{ mt: 1 }}>
          <List dense disablePadding data-testid="ticket-visits">
            {visits.data?.contents.map((v) => (
              <ListItem key={`v${v.id}`} disableGutters>
                <ListItemText
                  primary={`${v.userName} · ${formatDateTime(v.checkInAt)} – ${v.checkOutAt ? formatDateTime(v.checkOutAt) : 'on site'}`}
                  secondary={`${v.distance} m from the site${v.hours !== null ? ` · ${v.hours} h` : ''}`}
                />
              </ListItem>
            ))}
            {earlier.map((a) => (
              <ListItem key={`m${a.id}`} disableGutters>
                <ListItemText primary={`${a.user?.name ?? 'Unknown'} · ${formatDateTime(a.createdAt)}`} secondary={a.note || undefined} />
              </ListItem>
            ))}
          </List>
        </Box>
      )}
    </Paper>
  );
}
