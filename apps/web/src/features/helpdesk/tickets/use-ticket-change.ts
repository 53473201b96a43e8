import type { Ticket } from '@sitewatch/contracts/helpdesk/tickets';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { isHttpError } from '../../../lib/http.ts';
import { toast } from '../../../lib/toasts.ts';
import { ticketKeys } from '../keys.ts';
import { type TicketChange, updateTicket, useTicketChange } from './api.ts';
import { changeTicketStatus, mayQueue, QUEUED_MESSAGE } from './offline-changes.ts';

/**
 * A change of the open ticket at the version it was read: on 409 (someone else changed it, or the move is not
 * allowed) the server's words are shown and the ticket is read again, so the next try starts from the truth.
 */
export function useTicketUpdate(ticket: Ticket | undefined) {
  const client = useQueryClient();
  const mutation = useTicketChange((body: TicketChange) => {
    if (!ticket) throw new Error('no ticket');
    return updateTicket(ticket.id, { version: ticket.version, ...body });
  });
  const queued = useRef(false);
  // A status change or an acknowledgement works without a connection too (kept in the outbox).
  const fieldChange = useTicketChange(
    async (body: TicketChange) => {
      if (!ticket) throw new Error('no ticket');
      const result = await changeTicketStatus(ticket, body);
      queued.current = result.queued;
      return result.ticket;
    },
    { offline: true },
  );
  const change = async (body: TicketChange, options: { success?: string; failure?: string } = {}) => {
    try {
      const next = mayQueue(body) ? await fieldChange.mutateAsync(body) : await mutation.mutateAsync(body);
      if (mayQueue(body) && queued.current) {
        toast.info(QUEUED_MESSAGE);
        return next;
      }
      toast.success(options.success ?? 'Ticket updated successfully');
      return next;
    } catch (error) {
      const detail = isHttpError(error) ? error.detail : undefined;
      toast.error(options.failure ?? detail ?? 'Ticket could not be updated');
      if (isHttpError(error) && error.status === 409 && ticket) void client.invalidateQueries({ queryKey: ticketKeys.ticket(ticket.id) });
      return null;
    }
  };
  return { change, busy: mutation.isPending || fieldChange.isPending };
}
