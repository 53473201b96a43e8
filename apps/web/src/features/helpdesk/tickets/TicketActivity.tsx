import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type HistoryEntry, TICKET_LIMITS, TICKET_STATUS_LABELS, type TicketStatus } from '@sitewatch/contracts/helpdesk/tickets';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatRelative } from '../../../lib/format.ts';
import { isHttpError } from '../../../lib/http.ts';
import { toast } from '../../../lib/toasts.ts';
import { useAddComment, useAssignees, useComments, useHistory } from './api.ts';
import { QUEUED_MESSAGE } from './offline-changes.ts';

const FIELD_LABELS: Record<string, string> = {
  status: 'Status',
  assignedTo: 'Assignee',
  title: 'Summary',
  description: 'Description',
  event: 'Issue Type',
  subEvent: 'Issue Sub Type',
  priority: 'Priority',
  dueDate: 'Due date',
  eventDate: 'Event date',
  locationId: 'Location',
  entityId: 'Device',
  onHold: 'On hold',
  acknowledged: 'Acknowledged',
  checklist: 'Checklist',
  costIncurred: 'Cost incurred',
  watchers: 'Watchers',
  attachments: 'Attachments',
  rating: 'Rating',
  escalationLevel: 'Escalation level',
  overdue: 'Overdue',
  workOrder: 'Work order',
  ratingTicket: 'Follow-up ticket',
  attendance: 'Attendance',
  metadata: 'Details',
  formId: 'Form',
};
const ACTION_LABELS: Record<string, string> = {
  created: 'raised the ticket',
  status: 'changed the status',
  assigned: 'assigned the ticket',
  updated: 'updated the ticket',
  escalated: 'Escalated',
  overdue: 'Marked overdue',
  attachment: 'changed the attachments',
  rating: 'rated the ticket',
  watchers: 'changed the watchers',
  checklist: 'updated the checklist',
  cost: 'updated the cost incurred',
  attendance: 'marked attendance',
  linked: 'linked a ticket',
  slaPaused: 'paused the SLA for a maintenance window',
  slaResumed: 'resumed the SLA after a maintenance window',
  spares: 'used spares from the inventory',
};

function describe(value: unknown, field: string, names: Map<number, string>): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'status') return TICKET_STATUS_LABELS[value as TicketStatus] ?? String(value);
  if (field === 'assignedTo' && typeof value === 'number') return names.get(value) ?? `User ${value}`;
  if (field === 'watchers' && Array.isArray(value)) return value.map((id) => names.get(id as number) ?? `User ${id}`).join(', ') || '—';
  if (field.endsWith('Date') && typeof value === 'string') return formatDateTime(value);
  if (field === 'checklist' && Array.isArray(value))
    return `${value.filter((i) => (i as { done: boolean }).done).length}/${value.length} done`;
  if (field === 'costIncurred' && typeof value === 'object') {
    const c = value as { amount: number; currency: string };
    return `${c.amount} ${c.currency}`;
  }
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

function HistoryItem({ entry, highlighted, names }: { entry: HistoryEntry; highlighted: boolean; names: Map<number, string> }) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [highlighted]);
  const who = entry.actor?.name ?? 'System';
  const action = ACTION_LABELS[entry.action] ?? entry.action;
  return (
    <ListItem
      ref={ref}
      divider
      alignItems="flex-start"
      data-testid="history-entry"
      data-history-id={entry.history_id}
      sx={highlighted ? { bgcolor: 'warning.light', borderRadius: 1 } : undefined}
    >
      <ListItemText
        primary={`${entry.actor || !['escalated', 'overdue'].includes(entry.action) ? `${who} ` : ''}${action}`}
        secondary={
          <Box component="span" sx={{ display: 'grid', gap: 0.25 }}>
            {entry.changes
              .filter((c) => c.field !== 'status' || entry.action !== 'created')
              .map((c) => (
                <span key={c.field}>
                  {FIELD_LABELS[c.field] ?? c.field}: {describe(c.from, c.field, names)} → {describe(c.to, c.field, names)}
                </span>
              ))}
            {entry.note ? <em>{entry.note}</em> : null}
            <span title={formatDateTime(entry.updatedAt)}>{formatRelative(entry.updatedAt)}</span>
            {entry.performedAt ? <DoneAtSite at={entry.performedAt} arrived={entry.updatedAt} /> : null}
          </Box>
        }
      />
    </ListItem>
  );
}

/** A change sent later than it was made (from the phone's outbox): both times, since they differ. */
function DoneAtSite({ at, arrived }: { at: string; arrived: string }) {
  return (
    <span data-testid="performed-at">
      done at the site {formatDateTime(at)}, received {formatDateTime(arrived)}
    </span>
  );
}

function HistoryList({ ticketId, historyId }: { ticketId: number; historyId: number | null }) {
  // With a history entry to open, read enough of the history at once to find it.
  const limit = historyId ? 200 : 20;
  const [page, setPage] = useState(1);
  const history = useHistory(ticketId, page, limit);
  const entries = history.data?.contents ?? [];
  const ids = [
    ...new Set(
      entries.flatMap((e) =>
        e.changes.filter((c) => c.field === 'assignedTo' || c.field === 'watchers').flatMap((c) => [c.from, c.to].flat()),
      ),
    ),
  ].filter((v): v is number => typeof v === 'number');
  const users = useAssignees('', ids.length ? ids : undefined);
  const names = new Map((ids.length ? (users.data?.contents ?? []) : []).map((u) => [u.id, u.name]));
  const pages = Math.ceil((history.data?.totalCount ?? 0) / limit);
  return (
    <Box>
      <List dense data-testid="history-list">
        {entries.map((e) => (
          <HistoryItem key={e.history_id} entry={e} highlighted={e.history_id === historyId} names={names} />
        ))}
      </List>
      {pages > 1 ? <Pagination count={pages} page={page} onChange={(_e, p) => setPage(p)} size="small" /> : null}
    </Box>
  );
}

function Comments({ ticketId, ticketNumber, canComment }: { ticketId: number; ticketNumber: string; canComment: boolean }) {
  const comments = useComments(ticketId);
  const add = useAddComment(ticketId, ticketNumber);
  const [text, setText] = useState('');
  const tooLong = text.length > TICKET_LIMITS.commentMax;
  return (
    <Box>
      {canComment ? (
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!text.trim() || tooLong) return;
            add.mutate(text.trim(), {
              onSuccess: (result) => {
                setText('');
                if (result.queued) toast.info(QUEUED_MESSAGE);
              },
              onError: (error) => toast.error(isHttpError(error) ? (error.detail ?? error.message) : 'Comment not added'),
            });
          }}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 1 }}
        >
          <TextField
            size="small"
            fullWidth
            multiline
            maxRows={6}
            placeholder="Add a comment"
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={tooLong}
            helperText={tooLong ? `Please use maximum ${TICKET_LIMITS.commentMax} characters` : undefined}
            slotProps={{ htmlInput: { 'aria-label': 'Comment', 'data-testid': 'comment-input' } }}
          />
          <Button type="submit" variant="contained" disabled={!text.trim() || tooLong || add.isPending} data-testid="comment-submit">
            Post
          </Button>
        </Box>
      ) : null}
      {(comments.data?.contents ?? []).length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No comments yet.
        </Typography>
      ) : (
        <List dense>
          {(comments.data?.contents ?? []).map((c) => (
            <ListItem key={c.id} divider alignItems="flex-start" data-testid="comment">
              <ListItemText
                primary={c.text}
                secondary={
                  <>
                    {`${c.author?.name ?? 'Unknown'} · ${formatRelative(c.updatedAt)}`}
                    {c.performedAt ? (
                      <>
                        {' · '}
                        <DoneAtSite at={c.performedAt} arrived={c.createdAt} />
                      </>
                    ) : null}
                  </>
                }
                slotProps={{ primary: { sx: { whiteSpace: 'pre-wrap' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

/** History of every change and the comments of a ticket, side by side in tabs. */
export function TicketActivity(props: {
  ticketId: number;
  ticketNumber: string;
  historyId: number | null;
  showHistory: boolean;
  canComment: boolean;
  linkBase: string;
}) {
  const [tab, setTab] = useState(props.showHistory ? 'history' : 'comments');
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ mb: 1 }}>
        {props.showHistory ? <Tab value="history" label="History" data-testid="tab-history" /> : null}
        <Tab value="comments" label="Comments" data-testid="tab-comments" />
      </Tabs>
      {tab === 'history' && props.showHistory ? <HistoryList ticketId={props.ticketId} historyId={props.historyId} /> : null}
      {tab === 'comments' ? <Comments ticketId={props.ticketId} ticketNumber={props.ticketNumber} canComment={props.canComment} /> : null}
      {props.historyId && tab === 'history' ? (
        <Typography variant="caption" color="text.secondary">
          Opened at a history entry · <Link to={props.linkBase}>show the ticket without it</Link>
        </Typography>
      ) : null}
    </Paper>
  );
}
