import type { TicketCreate, TicketList, TicketType } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import type { Actor } from './access.ts';

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
  /**
   * Raises a ticket a user asked for from another domain's object (an alarm): their right to raise one of its type is
   * checked, they own it, `history` is its first history line; a priority the tenant's list lacks gives way to the
   * default.
   */
  raiseFor(actor: Actor, input: SystemTicketInput, history: string): Promise<{ id: number; ticketId: string }>;
  /** Whether the user may raise a ticket of this type. */
  mayRaise(actor: Actor, type: TicketType): boolean;
  /** Of these tickets of the tenant: their number and whether they are still open (neither resolved nor closed). */
  states(tenantId: number, ids: number[]): Promise<Map<number, { ticketNo: string; open: boolean }>>;
}

/**
 * What the helpdesk asks of the vendors directory (built before the helpdesk, so that the vendors module, which
 * reads issue types and tickets through the helpdesk's port, is not needed by it).
 */
export interface TicketVendors {
  /** The vendor of the tenant, with whether it serves the site (null site: no site to serve), or null. */
  vendorFor(
    tenantId: number,
    vendorId: number,
    siteId: number | null,
  ): Promise<{ id: number; name: string; active: boolean; servesSite: boolean } | null>;
  /** Company names of the tenant's vendors among these ids. */
  names(tenantId: number, vendorIds: number[]): Promise<Map<number, string>>;
  /** The vendor a user works for, if any (its users see its tickets). */
  vendorOfUser(tenantId: number, userId: number): Promise<number | null>;
  /** The vendor's active user accounts (they hear of tickets assigned to it). */
  userIds(tenantId: number, vendorId: number): Promise<number[]>;
}

/** What the vendors directory reads of the helpdesk. */
export interface HelpdeskForVendors {
  /** The tenant's issue types among these ids, by name. */
  issueTypes(tenantId: number, ids: number[]): Promise<{ id: number; name: string; active: boolean }[]>;
  /** Open (not resolved or closed) tickets per vendor, over the whole tenant. */
  openTicketCounts(tenantId: number, vendorIds: number[]): Promise<Map<number, number>>;
  /** The vendor's open tickets the actor may see, newest first. */
  openTickets(actor: Actor, vendorId: number, page: { page: number; limit: number }): Promise<TicketList>;
}

/** A ticket as the inventory names it when stock is issued to it. */
export interface LinkedTicket {
  id: number;
  ticketId: string;
  title: string;
  locationId: number | null;
  entityId: number | null;
}

/** What the inventory asks of the helpdesk: tickets the user may see, and a history line in the stock move's transaction. */
export interface TicketLinks {
  /** The ticket when the actor may see it, else null (another tenant's or an unseen ticket is not revealed). */
  visible(actor: Actor, id: number): Promise<LinkedTicket | null>;
  /** Adds a line to the ticket's history in the caller's transaction. */
  addHistory(trx: Db, entry: { tenantId: number; ticketId: number; actorId: number | null; note: string }): Promise<void>;
}
