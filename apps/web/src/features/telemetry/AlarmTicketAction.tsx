import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import type { Alarm } from '@sitewatch/contracts/alarms';
import { Link as RouterLink, useNavigate } from 'react-router';
import { canRaiseTicket } from '../../lib/access.ts';
import { useUser } from '../../lib/session.ts';
import { useRaiseAlarmTicket } from './api.ts';

export const alarmTicketPath = (ticketId: number) => `/tickets/all/${ticketId}`;

/**
 * An alarm's ticket, wherever the alarm shows: its ticket as a link, and "Raise ticket" (for users who may raise
 * device-health tickets) when it has no open one. Raising opens the new ticket; `open` opens a path elsewhere than
 * in this page (the extension panel opens the full product).
 */
export function AlarmTicketAction({
  alarm,
  open,
}: {
  alarm: Pick<Alarm, 'id' | 'ticketId' | 'ticketNo' | 'ticketOpen'>;
  open?: (path: string) => void;
}) {
  const user = useUser();
  const navigate = useNavigate();
  const raise = useRaiseAlarmTicket();
  const go = open ?? ((path: string) => void navigate(path));
  const mayRaise = canRaiseTicket(user, 'AlarmTicket') && !(alarm.ticketId && alarm.ticketOpen);
  const name = alarm.ticketNo ?? `#${alarm.ticketId}`;
  const link = alarm.ticketId ? (
    open ? (
      <Button size="small" onClick={() => go(alarmTicketPath(alarm.ticketId as number))} data-testid="alarm-ticket-link">
        Ticket {name}
      </Button>
    ) : (
      <Link component={RouterLink} to={alarmTicketPath(alarm.ticketId)} data-testid="alarm-ticket-link" sx={{ whiteSpace: 'nowrap' }}>
        Ticket {name}
      </Link>
    )
  ) : null;
  if (!link && !mayRaise) return null;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }} onClick={(e) => e.stopPropagation()}>
      {link}
      {mayRaise ? (
        <Button
          size="small"
          variant="outlined"
          disabled={raise.isPending}
          data-testid="raise-alarm-ticket"
          onClick={() => raise.mutate(alarm.id, { onSuccess: (ticket) => go(alarmTicketPath(ticket.ticketId)) })}
          sx={{ whiteSpace: 'nowrap' }}
        >
          Raise ticket
        </Button>
      ) : null}
    </Box>
  );
}
