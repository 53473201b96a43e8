import type { TicketCreate } from '@sitewatch/contracts';

/** A ticket another domain raises on the system's behalf (alarms, alarm actions). */
export interface SystemTicketInput extends Omit<TicketCreate, 'description'> {
  description?: string;
  /** The user on whose behalf the ticket is raised (owner), if any. */
  ownerId?: number | null;
  /** Return the open ticket of the same type, device and event instead of raising a second one. */
  reuseOpen?: boolean;
}

/** What other domains may ask of the helpdesk: the one way to raise a ticket from outside it. */
export interface SystemTickets {
  /** Raises a ticket on the system's behalf; with reuseOpen, an open duplicate is returned instead. */
  createTicket(tenantId: number, input: SystemTicketInput): Promise<{ id: number; ticketId: string; reused: boolean }>;
}
