import { HttpError } from '../../platform/errors.ts';
import type { TicketLinks } from './ports.ts';
import { insertHistory } from './ticket-repository.ts';
import type { TicketService } from './ticket-service.ts';

/** The inventory's view of tickets: the ones a user may see, and a history line written in the stock move's transaction. */
export function createTicketLinks(tickets: Pick<TicketService, 'visibleTicket'>): TicketLinks {
  return {
    async visible(actor, id) {
      try {
        const row = await tickets.visibleTicket(actor, id);
        return { id: row.id, ticketId: row.ticket_no, title: row.title, locationId: row.location_id, entityId: row.entity_id };
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 404) return null;
        throw error;
      }
    },
    async addHistory(trx, entry) {
      await insertHistory(trx, { ...entry, action: 'spares', changes: [] });
    },
  };
}
