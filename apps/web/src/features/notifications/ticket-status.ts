import { HELPDESK_MESSAGES } from '@sitewatch/contracts/helpdesk/tickets';
import type { InboxItem } from '@sitewatch/contracts/notifications';
import { api } from '../../lib/api.ts';
import { isHttpError } from '../../lib/http.ts';
import { toast } from '../../lib/toasts.ts';

const IN_PROGRESS = 'INPROGRESS';

/** A notification about a ticket (its data names the ticket); alarms and others have no ticket to move. */
export const isTicketNotice = (item: InboxItem) =>
  item.notification.verb.startsWith('ticket.') && item.notification.metadata.data.id !== null;

export const isInProgress = (item: InboxItem) => item.notification.metadata.data.status === IN_PROGRESS;

/**
 * SPEC 4: the popup button moves the ticket to INPROGRESS (PUT with the ticket's current version), then shows
 * 'Already In Progress'. Returns false when it could not.
 */
export async function changeToInProgress(ticketId: number): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const ticket = await api.get('/helpdesk/tickets/{id}/', { path: { id: ticketId } });
    if (ticket.status === IN_PROGRESS) return true;
    try {
      await api.put(
        '/helpdesk/tickets/{id}/',
        { version: ticket.version, status: IN_PROGRESS },
        { path: { id: ticketId }, toast: attempt > 0 },
      );
      toast.success(HELPDESK_MESSAGES.ticketUpdated);
      return true;
    } catch (error) {
      // Someone changed it meanwhile: read it again once.
      if (!(isHttpError(error) && error.status === 409) || attempt > 0) {
        if (isHttpError(error) && error.status !== 409 && attempt === 0) toast.error(error.message);
        return false;
      }
    }
  }
  return false;
}
