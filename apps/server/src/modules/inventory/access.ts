import { INVENTORY_PERMISSIONS, isCustomerAdmin, ROLES_SEEING_ALL_SITES } from '@sitewatch/contracts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import * as repo from './repository.ts';

/**
 * Who may do what in the inventory:
 * - the inventory permissions of the user's group: view reads, add creates stores and items and receives stock,
 *   change edits them and transfers, issues, returns and replaces devices, delete deletes and writes off;
 * - admins (sysadmin, customeradmin, localadmin) see every store of the tenant; others see the stores at no site,
 *   at one of their sites, and the stores they manage. A store they do not see answers 404, never its name.
 */
export type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;

export const isAdmin = (actor: Actor) =>
  actor.roles.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r)) || isCustomerAdmin(actor.roles);

export type InventoryRight = keyof typeof INVENTORY_PERMISSIONS;
export const can = (actor: Actor, right: InventoryRight) => actor.permissions.has(INVENTORY_PERMISSIONS[right]);
export function need(actor: Actor, right: InventoryRight) {
  if (!can(actor, right)) throw forbidden();
}

export function createStoreAccess(db: Db, directory: SiteDirectory) {
  /** The stores the actor sees ('all' for admins). */
  async function scopeOf(actor: Actor): Promise<repo.StoreScope> {
    if (isAdmin(actor)) return 'all';
    const sites = await directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
    if (sites === 'all') return 'all';
    return repo.storeIdsFor(db, actor.tenantId, actor.userId, sites);
  }
  /** A store the actor sees, or 404. */
  async function visibleStore(actor: Actor, id: number, scope?: repo.StoreScope) {
    const s = scope ?? (await scopeOf(actor));
    if (s !== 'all' && !s.includes(id)) throw notFound('Store not found.');
    const store = await repo.findStore(db, actor.tenantId, id);
    if (!store) throw notFound('Store not found.');
    return store;
  }
  /** May the actor place a store at this site (null: no site)? 404 for a site they do not see. */
  async function checkSite(actor: Actor, assetId: number | null) {
    if (assetId === null) return null;
    const site = await directory.asset(actor.tenantId, assetId);
    const sites = isAdmin(actor) ? 'all' : await directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
    if (!site || (sites !== 'all' && !sites.includes(assetId))) throw notFound('Site not found.');
    return site;
  }
  return { scopeOf, visibleStore, checkSite };
}
export type StoreAccess = ReturnType<typeof createStoreAccess>;
