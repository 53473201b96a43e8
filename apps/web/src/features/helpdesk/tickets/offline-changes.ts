import {
  type Comment,
  TICKET_STATUS_LABELS,
  TICKET_TRANSITIONS,
  type Ticket,
  type TicketStatus,
} from '@sitewatch/contracts/helpdesk/tickets';
import type { BodyOf, ResponseOf } from '../../../lib/api.ts';
import { updateCopy } from '../../../lib/offline/read-cache.ts';
import { QUEUED_MESSAGE, sendOrQueue } from '../../../lib/offline/send-or-queue.ts';

/**
 * Changes a field executive may make at a site without a connection: a status change (with its note), an
 * acknowledgement, checklist ticks, the cost incurred, a comment and a rating. Online they are sent at once, with an idempotency key and the time they were made;
 * without a connection (or when the send finds none) they go to the outbox, and the ticket on the phone shows them.
 */
type TicketChange = Omit<BodyOf<'/helpdesk/tickets/{id}/', 'put'>, 'version'>;
type RatingInput = BodyOf<'/helpdesk/tickets/{id}/rating/', 'post'>;
type RatingResult = ResponseOf<'/helpdesk/tickets/{id}/rating/', 'post'>;
const OFFLINE_FIELDS = new Set(['status', 'note', 'acknowledged', 'checklist', 'costIncurred']);

export { QUEUED_MESSAGE };

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
    checklist: change.checklist ? predictChecklist(ticket.checklist, change.checklist) : ticket.checklist,
    costIncurred:
      change.costIncurred === undefined
        ? ticket.costIncurred
        : change.costIncurred && { currency: 'USD', note: '', ...change.costIncurred },
    version: ticket.version + 1,
    can: { ...ticket.can, statuses },
  };
}

/** The checklist as the server will stamp it: an item ticked now is done by this user now. */
function predictChecklist(current: Ticket['checklist'], next: NonNullable<TicketChange['checklist']>): Ticket['checklist'] {
  const before = new Map(current.map((i) => [i.id, i]));
  const now = new Date().toISOString();
  return next.map((item) => {
    const old = before.get(item.id);
    if (old && old.done === item.done) return { ...old, text: item.text };
    return { id: item.id, text: item.text, done: !!item.done, doneBy: null, doneAt: item.done ? now : null };
  });
}

function labelOf(ticket: Ticket, change: TicketChange) {
  if (change.status) return `${ticket.ticketId}: move to ${TICKET_STATUS_LABELS[change.status as TicketStatus] ?? change.status}`;
  if (change.acknowledged) return `${ticket.ticketId}: acknowledge`;
  if (change.checklist)
    return `${ticket.ticketId}: checklist (${change.checklist.filter((i) => i.done).length}/${change.checklist.length} done)`;
  if (change.costIncurred)
    return `${ticket.ticketId}: cost incurred ${change.costIncurred.amount} ${change.costIncurred.currency ?? ''}`.trim();
  return `${ticket.ticketId}: change`;
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

export async function rateTicket(ticket: Pick<Ticket, 'id' | 'ticketId'>, body: RatingInput) {
  const result = await sendOrQueue<RatingResult>({
    kind: 'ticket.rating',
    label: `${ticket.ticketId}: rating ${body.rating}`,
    method: 'POST',
    path: `${ticketPath(ticket.id)}rating/`,
    body,
    subject: `ticket:${ticket.id}`,
  });
  return 'answer' in result ? { result: result.answer, queued: false } : { result: null, queued: true };
}
