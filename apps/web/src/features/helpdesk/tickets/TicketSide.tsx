import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Rating from '@mui/material/Rating';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TICKET_LIMITS, TICKET_STATUS_LABELS, type Ticket, type TicketStatus } from '@sitewatch/contracts/helpdesk/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../../lib/api.ts';
import { isHttpError } from '../../../lib/http.ts';
import { useUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toasts.ts';
import { ticketKeys } from '../keys.ts';
import { type Assignee, useTicketChange } from './api.ts';
import { UserPicker } from './components.tsx';
import { statusColour, viewPath } from './model.ts';
import { QUEUED_MESSAGE, rateTicket } from './offline-changes.ts';
import { Section } from './TicketSections.tsx';

const errorText = (error: unknown, fallback: string) => (isHttpError(error) ? (error.detail ?? error.message) : fallback);

export function WatchersSection({ ticket }: { ticket: Ticket }) {
  const user = useUser();
  const [adding, setAdding] = useState<Assignee | null>(null);
  const watch = useTicketChange((userId?: number) =>
    api.post('/helpdesk/tickets/{id}/watchers/', userId ? { userId } : {}, { path: { id: ticket.id }, toast: false }),
  );
  const unwatch = useTicketChange((userId: number) =>
    api.del('/helpdesk/tickets/{id}/watchers/{userId}/', { path: { id: ticket.id, userId }, toast: false }),
  );
  const watching = ticket.watchers.some((w) => w.id === user?.id);
  const onError = (error: unknown) => toast.error(errorText(error, 'Watchers not updated'));
  return (
    <Section
      title="Watchers"
      testId="watchers-section"
      action={
        user ? (
          <Button
            size="small"
            onClick={() => (watching ? unwatch.mutate(user.id, { onError }) : watch.mutate(undefined, { onError }))}
            disabled={watch.isPending || unwatch.isPending}
            data-testid="watch-toggle"
          >
            {watching ? 'Stop watching' : 'Watch'}
          </Button>
        ) : null
      }
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mb: 1 }}>
        {ticket.watchers.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            Nobody watches this ticket.
          </Typography>
        ) : (
          ticket.watchers.map((w) => (
            <Chip
              key={w.id}
              label={w.name}
              title={w.email}
              onDelete={ticket.can.manageWatchers || w.id === user?.id ? () => unwatch.mutate(w.id, { onError }) : undefined}
            />
          ))
        )}
      </Box>
      {ticket.can.manageWatchers ? (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <Box sx={{ flex: 1 }}>
            <UserPicker label="Add a watcher" value={adding} onChange={setAdding} />
          </Box>
          <Button
            disabled={!adding || watch.isPending}
            onClick={() => adding && watch.mutate(adding.id, { onSuccess: () => setAdding(null), onError })}
          >
            Add
          </Button>
        </Box>
      ) : null}
    </Section>
  );
}

/** Rating (SPEC 2.15): the owner rates a finished ticket; under the threshold a follow-up ticket is raised. */
export function RatingSection({ ticket, threshold }: { ticket: Ticket; threshold: number }) {
  const client = useQueryClient();
  const [value, setValue] = useState<number | null>(ticket.ratingDetail?.value ?? null);
  const [comment, setComment] = useState(ticket.ratingDetail?.comment ?? '');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!value) return;
    setBusy(true);
    try {
      const { result } = await rateTicket(ticket, { rating: value, comment: comment.trim() });
      if (!result) {
        toast.info(QUEUED_MESSAGE);
        return;
      }
      client.setQueryData(ticketKeys.ticket(ticket.id), result.ticket);
      void client.invalidateQueries({ queryKey: ticketKeys.historyOf(ticket.id) });
      toast.success(result.message);
      if (result.raisedTicket) toast.info(`Follow-up ticket ${result.raisedTicket.ticketId} raised for the low rating`);
    } catch (error) {
      toast.error(errorText(error, 'Rating not saved'));
    } finally {
      setBusy(false);
    }
  };
  const detail = ticket.ratingDetail;
  return (
    <Section title="Rating" testId="rating-section">
      {ticket.can.rate ? (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Rating value={value} max={TICKET_LIMITS.ratingMax} onChange={(_e, v) => setValue(v)} data-testid="rating-input" />
          {value !== null && value < threshold ? (
            <Typography variant="caption" color="warning.main">
              A rating under {threshold} raises a follow-up ticket.
            </Typography>
          ) : null}
          <TextField
            size="small"
            multiline
            minRows={2}
            placeholder="Comment (optional)"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 250 } }}
          />
          <Button variant="contained" size="small" disabled={!value || busy} onClick={() => void submit()} data-testid="rating-submit">
            {detail ? 'Update rating' : 'Rate'}
          </Button>
        </Box>
      ) : null}
      {detail ? (
        <Box sx={{ mt: ticket.can.rate ? 2 : 0 }} data-testid="rating-value">
          <Rating value={detail.value} max={TICKET_LIMITS.ratingMax} readOnly size="small" />
          <Typography variant="body2">{detail.comment}</Typography>
          <Typography variant="caption" color="text.secondary">
            {detail.ratedBy?.name}
          </Typography>
          {detail.raisedTicketId ? (
            <Typography variant="body2">
              Follow-up: <Link to={viewPath('TICKET', detail.raisedTicketId)}>ticket #{detail.raisedTicketId}</Link>
            </Typography>
          ) : null}
        </Box>
      ) : !ticket.can.rate ? (
        <Typography variant="body2" color="text.secondary">
          {['RESOLVED', 'CLOSED'].includes(ticket.status)
            ? 'Not rated yet; the owner rates the ticket.'
            : 'The ticket can be rated once it is resolved.'}
        </Typography>
      ) : null}
    </Section>
  );
}

function duration(seconds: number) {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** Time spent per status (statusAgeing), the current status counting up to now. */
export function AgeingSection({ ticket }: { ticket: Ticket }) {
  const now = Date.now();
  const entries = Object.entries(ticket.statusAgeing).sort((a, b) => a[1].enteredAt.localeCompare(b[1].enteredAt));
  return (
    <Section title="Status ageing" testId="ageing-section">
      <Table size="small">
        <TableBody>
          {entries.map(([status, a]) => {
            const live = a.exitedAt === null ? (now - Date.parse(a.enteredAt)) / 1000 : 0;
            return (
              <TableRow key={status}>
                <TableCell sx={{ pl: 0 }}>
                  <Box
                    component="span"
                    sx={{ display: 'inline-block', width: 10, height: 10, borderRadius: '50%', bgcolor: statusColour(status), mr: 1 }}
                  />
                  {TICKET_STATUS_LABELS[status as TicketStatus] ?? status}
                </TableCell>
                <TableCell align="right">{duration(a.duration + live)}</TableCell>
                <TableCell align="right" sx={{ pr: 0, color: 'text.secondary' }}>
                  ×{a.count}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Section>
  );
}
