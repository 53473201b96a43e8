import type { Role } from '@sitewatch/contracts';
import { ROLES } from '@sitewatch/contracts';

/**
 * The escalation rules of user administration: an administrator grants only roles at or below their own rank and
 * groups whose permissions they hold themselves, and manages only users whose rights they hold.
 */

const RANK: Partial<Record<Role, number>> = { sysadmin: 3, customeradmin: 2, localadmin: 1 };

/** Roles whose holders administer a tenant; one active holder must always remain. */
export const ADMIN_ROLES: readonly Role[] = ['sysadmin', 'customeradmin'];

export const rankOf = (roles: readonly string[]) => Math.max(0, ...roles.map((r) => RANK[r as Role] ?? 0));

export const grantableRoles = (actorRoles: readonly string[]): Role[] => {
  const rank = rankOf(actorRoles);
  return ROLES.filter((role) => (RANK[role] ?? 0) <= rank);
};

export const holdsAll = (actorPermissions: ReadonlySet<string>, permissions: readonly { codename: string }[]) =>
  permissions.every((p) => actorPermissions.has(p.codename));

export interface Rights {
  roles: readonly string[];
  permissions: readonly { codename: string }[];
}

/** The actor may change or remove the target only when the target's rights are within the actor's own. */
export const mayManage = (actor: { roles: readonly string[]; permissions: ReadonlySet<string> }, target: Rights) =>
  rankOf(target.roles) <= rankOf(actor.roles) && holdsAll(actor.permissions, target.permissions);

export const isAdmin = (roles: readonly string[]) => roles.some((r) => (ADMIN_ROLES as readonly string[]).includes(r));
