import {
  canTransition,
  isCustomerAdmin,
  OWNER_STATUSES,
  ROLES_SEEING_ALL_SITES,
  TICKET_STATUSES,
  TICKET_TRANSITIONS,
  type TicketStatus,
  type TicketType,
} from '@sitewatch/contracts';
import type { AuthContext } from '../../platform/auth/context.ts';

/**
 * Who may do what with a ticket. The spec leaves most of it open ("other permission details: not shown");
 * the rules, also written in docs/helpdesk.md:
 * - admins (sysadmin, customeradmin, localadmin) see every ticket of the tenant; others see the tickets of their
 *   sites and the ones they raised, are assigned or watch;
 * - raising a TICKET needs view_ticket (customer users raise tickets), the other kinds need add_ticket;
 * - change_ticket edits, assigns and moves any ticket the user sees; the assignee edits and moves their ticket;
 *   the owner edits the text of their ticket and may close or re-open it;
 * - rating is the owner's alone unless the type's ticketViewConfigs.ratingOwnerOnly is off.
 */
export type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;

export const isAdmin = (actor: Actor) =>
  actor.roles.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r)) || isCustomerAdmin(actor.roles);
export const canChange = (actor: Actor) => isAdmin(actor) || actor.permissions.has('change_ticket');
export const canRaise = (actor: Actor, type: TicketType) =>
  isAdmin(actor) || actor.permissions.has('add_ticket') || (type === 'TICKET' && actor.permissions.has('view_ticket'));

export interface TicketFacts {
  type: string;
  status: string;
  created_by: number | null;
  assigned_to: number | null;
  watchers: number[];
  location_id: number | null;
}

export const isOwner = (actor: Actor, t: TicketFacts) => t.created_by === actor.userId;
export const isAssignee = (actor: Actor, t: TicketFacts) => t.assigned_to === actor.userId;
export const isInvolved = (actor: Actor, t: TicketFacts) => isOwner(actor, t) || isAssignee(actor, t) || t.watchers.includes(actor.userId);

/** Whether the actor may see the ticket, given the sites they see ('all' for roles that see every site). */
export function canSee(actor: Actor, t: TicketFacts, sites: number[] | 'all') {
  if (isAdmin(actor) || isInvolved(actor, t)) return true;
  if (!actor.permissions.has('view_ticket')) return false;
  if (sites === 'all') return true;
  return t.location_id !== null && sites.includes(t.location_id);
}

export const canEdit = (actor: Actor, t: TicketFacts) => canChange(actor) || isAssignee(actor, t) || isOwner(actor, t);
export const canAssign = (actor: Actor) => canChange(actor);

/** The statuses the actor may move the ticket to from where it is. */
export function allowedStatuses(actor: Actor, t: TicketFacts): TicketStatus[] {
  const from = t.status as TicketStatus;
  const next = TICKET_TRANSITIONS[from] ?? [];
  if (canChange(actor) || isAssignee(actor, t)) return [...next];
  if (isOwner(actor, t)) return next.filter((s) => OWNER_STATUSES.includes(s));
  return [];
}

export const mayMoveTo = (actor: Actor, t: TicketFacts, to: TicketStatus) =>
  canTransition(t.status as TicketStatus, to) && (t.status === to || allowedStatuses(actor, t).includes(to));

export const canRate = (actor: Actor, t: TicketFacts, ownerOnly: boolean) =>
  ownerOnly ? isOwner(actor, t) : isOwner(actor, t) || isAssignee(actor, t) || canChange(actor) || t.watchers.includes(actor.userId);

export const isStatus = (s: string): s is TicketStatus => (TICKET_STATUSES as readonly string[]).includes(s);
