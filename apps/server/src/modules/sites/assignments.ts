import type { Db } from '../../platform/db.ts';
import * as repo from './assignments-repository.ts';

/** One of a user's site links, with the site's name and address. */
export type SiteAssignment = Awaited<ReturnType<typeof repo.listUserSites>>['rows'][number];

/**
 * Users' site assignments as the users module lists and changes them (the sites module owns the links). Changes
 * run in the transaction the caller passes, so a change and its audit entry commit together.
 */
export interface SiteAssignments {
  /** The user's sites by name, a page at a time; `searchText` looks in the sites' names. */
  list(
    tenantId: number,
    q: { userId: number; searchText?: string; page: number; limit: number },
  ): Promise<{ rows: SiteAssignment[]; total: number }>;
  /** The user's first `limit` sites by name, and how many sites the user has. */
  firstSites(tenantId: number, userId: number, limit: number): Promise<[{ id: number; name: string }[], number]>;
  /** The site ids of each of the users (an empty list for a user without sites). */
  siteIdsByUser(tenantId: number, userIds: number[]): Promise<Map<number, number[]>>;
  link(tenantId: number, id: number): Promise<{ id: number; user_id: number; asset_id: number } | undefined>;
  /** Links the tenant's sites with these ids, or under this address path, to the user; returns how many were new. */
  assign(trx: Db, tenantId: number, userId: number, by: { ids?: number[]; address?: string[] }, createdBy: number): Promise<number>;
  /** Leaves the user linked to exactly these sites. */
  replace(trx: Db, tenantId: number, userId: number, assetIds: number[], createdBy: number): Promise<void>;
  /** Unlinks these sites from the user; returns how many links went. */
  remove(trx: Db, tenantId: number, userId: number, assetIds: number[]): Promise<number>;
  removeLink(trx: Db, tenantId: number, id: number): Promise<void>;
  /** The tenant's sites whose name or code (metadata.assetCode) is one of `keys`, case-insensitive: key (lower case) → ids. */
  idsByNameOrCode(tenantId: number, keys: string[]): Promise<Map<string, number[]>>;
}

export function createSiteAssignments(db: Db): SiteAssignments {
  return {
    list: (tenantId, q) => repo.listUserSites(db, tenantId, q),
    firstSites: (tenantId, userId, limit) => repo.firstSitesOf(db, tenantId, userId, limit),
    siteIdsByUser: (tenantId, userIds) => repo.siteIdsByUser(db, tenantId, userIds),
    link: (tenantId, id) => repo.findLink(db, tenantId, id),
    assign: (trx, tenantId, userId, by, createdBy) => repo.assignSites(trx, tenantId, userId, by, createdBy),
    replace: (trx, tenantId, userId, assetIds, createdBy) => repo.replaceSites(trx, tenantId, userId, assetIds, createdBy),
    remove: (trx, tenantId, userId, assetIds) => repo.removeSites(trx, tenantId, userId, assetIds),
    removeLink: async (trx, tenantId, id) => {
      await repo.deleteLink(trx, tenantId, id);
    },
    idsByNameOrCode: (tenantId, keys) => repo.siteIdsByNameOrCode(db, tenantId, keys),
  };
}
