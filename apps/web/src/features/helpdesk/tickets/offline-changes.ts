import {
  type Comment,
  TICKET_STATUS_LABELS,
  TICKET_TRANSITIONS,
  type Ticket,
  type TicketStatus,
} from '@sitewatch/contracts/helpdesk/tickets';
import type { BodyOf } from '../../../lib/api.ts';
import { isHttpError } from '../../../lib/http.ts';
import { enqueue, type NewAction, newActionKey, sendAction } from '../../../lib/offline/outbox.ts';
import { updateCopy } from '../../../lib/offline/read-cache.ts';

/**
 * Changes a field executive may make at a site without a connection: a status change (with its note), an
 * acknowledgement and a comment. Online they are sent at once, with an idempotency key and the time they were made;
 * without a connection (or when the send finds none) they go to the outbox, and the ticket on the phone shows them.
 */
type TicketChange = Omit<BodyOf<'/helpdesk/tickets/{id}/', 'put'>, 'version'>;
const OFFLINE_FIELDS = new Set(['status', 'note', 'acknowledged']);
export const QUEUED_MESSAGE = 'Saved on this phone: it is sent when the connection returns.';

export const mayQueue = (change: TicketChange) => Object.keys(change).every((field) => OFFLINE_FIELDS.has(field));

const ticketPath = (id: number) => `/helpdesk/tickets/${id}/`;

/** The ticket as it will be once the change is made: the status moves, the version steps, the next moves follow. */
export function predictTicket(ticket: Ticket, change: TicketChange): Ticket {
  const status = (change.status ?? ticket.status) as TicketStatus;
  const hadAll = ticket.can.statuses.length === TICKET_TRANSITIONS[ticket.status as TicketStatus]?.length;
  const statuses = status === ticket.status ? ticket.can.statuses : hadAll ? [...TICKET_TRANSITIONS[status]] : [];
  return {
    ...ticket,
    status,
    acknowledged: change.acknowledged ?? ticket.acknowledged,
    version: ticket.version + 1,
    can: { ...ticket.can, statuses },
  };
}

function labelOf(ticket: Ticket, change: TicketChange) {
  if (change.status) return `${ticket.ticketId}: move to ${TICKET_STATUS_LABELS[change.status as TicketStatus] ?? change.status}`;
  if (change.acknowledged) return `${ticket.ticketId}: acknowledge`;
  return `${ticket.ticketId}: change`;
}

/** Sends now when there is a connection; otherwise (or when the send reaches nobody) keeps it in the outbox. */
async function sendOrQueue<T>(action: NewAction): Promise<{ answer: T } | { queued: true }> {
  const keyed = { ...action, key: newActionKey(), performedAt: new Date().toISOString() };
  if (navigator.onLine) {
    try {
      return { answer: await sendAction<T>(keyed) };
    } catch (error) {
      if (!isHttpError(error) || error.status !== 0) throw error;
    }
  }
  if (!(await enqueue(keyed))) throw new Error('This phone cannot keep changes while offline.');
  return { queued: true };
}

export async function changeTicketStatus(ticket: Ticket, change: TicketChange): Promise<{ ticket: Ticket; queued: boolean }> {
  const result = await sendOrQueue<Ticket>({
    kind: 'ticket.update',
    label: labelOf(ticket, change),
    method: 'PUT',
    path: ticketPath(ticket.id),
    body: { version: ticket.version, ...change },
    subject: `ticket:${ticket.id}`,
  });
  if ('answer' in result) return { ticket: result.answer, queued: false };
  const predicted = predictTicket(ticket, change);
  await updateCopy<Ticket>(ticketPath(ticket.id), () => predicted).catch(() => undefined);
  return { ticket: predicted, queued: true };
}

export async function addTicketComment(ticket: Pick<Ticket, 'id' | 'ticketId'>, text: string) {
  const result = await sendOrQueue<Comment>({
    kind: 'ticket.comment',
    label: `${ticket.ticketId}: comment “${text.length > 60 ? `${text.slice(0, 57)}…` : text}”`,
    method: 'POST',
    path: `${ticketPath(ticket.id)}comments/`,
    body: { text },
    subject: `ticket:${ticket.id}`,
  });
  return 'answer' in result ? { comment: result.answer, queued: false } : { comment: null, queued: true };
}
