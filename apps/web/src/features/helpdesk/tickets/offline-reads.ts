import type { Ticket } from '@sitewatch/contracts/helpdesk/tickets';
import { http } from '../../../lib/http.ts';

/**
 * What a field executive needs at a site without a connection, read while online so that the phone keeps it (the
 * http client keeps a copy of each of these answers): the open tickets assigned to them, each with its details,
 * history and comments as the ticket screen asks for them, the helpdesk settings that screen uses, and whether they
 * are checked in.
 */
const OPEN = 'OPEN,INPROGRESS,INREVIEW,RE-OPENED,ESCALATE,OVERDUE,FLAGGED';
const MOST_TICKETS = 25;
const EVERY_MS = 15 * 60_000;
let readAt = 0;

export async function keepOpenTicketsForOffline(now = Date.now()) {
  if (now - readAt < EVERY_MS) return;
  readAt = now;
  const get = <T>(path: string) => http.get<T>(path, { toast: false });
  try {
    const list = await get<{ contents: Pick<Ticket, 'id'>[] }>(
      `/helpdesk/tickets/?assignedTo=me&status=${encodeURIComponent(OPEN)}&limit=${MOST_TICKETS}&page=1`,
    );
    await get('/helpdesk/config/');
    await get('/api/attendance/current/');
    for (const { id } of list.contents) {
      await get(`/helpdesk/tickets/${id}/`);
      await get(`/helpdesk/tickets/${id}/history/?page=1&limit=20&orderBy=-updatedAt`);
      await get(`/helpdesk/tickets/${id}/comments/?page=1&limit=100&orderBy=-updatedAt`);
    }
  } catch {
    readAt = 0;
  }
}
