import type { User } from '@sitewatch/contracts/auth';
import { isCustomerAdmin, ROLES_SEEING_ALL_SITES } from '@sitewatch/contracts/roles';

/**
 * What the signed-in user may do, written as the server checks it (route guards and service rules), so that
 * screens hide actions and routes the server would refuse instead of letting a user fill a form in vain.
 * Keep in step with: sites and devices routes (permission guards), helpdesk access.ts (tickets), video service
 * (camera, storage and tour administration).
 */
type Who = Pick<User, 'userRole' | 'groups'> | null | undefined;

const permissions = (user: Who) => new Set(user?.groups[0]?.permissions.map((p) => p.codename) ?? []);
export const can = (user: Who, codename: string) => permissions(user).has(codename);
const hasAnyRole = (user: Who, roles: readonly string[]) => Boolean(user?.userRole.some((r) => roles.includes(r)));

/** Helpdesk administrators: every ticket of the tenant, every action. */
export const isTicketAdmin = (user: Who) => hasAnyRole(user, ROLES_SEEING_ALL_SITES) || isCustomerAdmin(user?.userRole ?? []);

/** Raising a ticket: TICKET needs view_ticket (customer users raise tickets), other kinds add_ticket. */
export const canRaiseTicket = (user: Who, type: string) =>
  isTicketAdmin(user) || can(user, 'add_ticket') || ((type === 'TICKET' || type === 'all') && can(user, 'view_ticket'));
/** Editing, assigning and moving any visible ticket. */
export const canChangeTickets = (user: Who) => isTicketAdmin(user) || can(user, 'change_ticket');
export const canImportTickets = (user: Who) => isTicketAdmin(user) || can(user, 'add_ticket');
export const canViewTicketReports = (user: Who) => isTicketAdmin(user) || can(user, 'view_ticket');

/** Camera configuration, storages and tours are administered by these roles (video service). */
export const VIDEO_ADMIN_ROLES = ['sysadmin', 'customeradmin', 'localadmin', 'infraadmin'] as const;
export const canAdministerVideo = (user: Who) => hasAnyRole(user, VIDEO_ADMIN_ROLES);
