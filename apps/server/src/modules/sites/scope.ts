import { ROLES_SEEING_ALL_SITES } from '@sitewatch/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { AuthContext } from '../../platform/auth/context.ts';

/**
 * Who is looking: the tenant, the user, and whether the user's role sees every site of the tenant. Everyone else
 * sees only the sites assigned to them (user_assets) and the devices of those sites.
 */
export interface Viewer {
  tenantId: number;
  userId: number;
  allSites: boolean;
}

export const seesAllSites = (roles: readonly string[]) => roles.some((r) => (ROLES_SEEING_ALL_SITES as readonly string[]).includes(r));

export const viewerOf = (auth: AuthContext): Viewer => ({
  tenantId: auth.tenantId,
  userId: auth.userId,
  allSites: seesAllSites(auth.roles),
});

/** A condition on an asset id column: the viewer may see that site. A null asset (inventory) is for all-site roles only. */
export function assetVisible(viewer: Viewer, column: string): Expression<SqlBool> {
  if (viewer.allSites) return sql<boolean>`true`;
  return sql<boolean>`${sql.ref(column)} in (select ua.asset_id from user_assets ua where ua.tenant_id = ${viewer.tenantId} and ua.user_id = ${viewer.userId})`;
}

/** Escapes a user's text for LIKE/ILIKE. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
export const contains = (text: string) => `%${likeEscape(text)}%`;
export const startsWith = (text: string) => `${likeEscape(text)}%`;

/** `a.address[1:n] = path`: the site lies under these address levels. */
export function underPath(column: string, path: readonly string[]): Expression<SqlBool> {
  if (path.length === 0) return sql<boolean>`true`;
  return sql<boolean>`${sql.ref(column)}[1:${sql.lit(path.length)}] = ${[...path]}::text[]`;
}

// Other domains' queries that must join sites for speed (lists, filters, counts) compose these; the sites' table
// and its columns stay named here.

/** The ids of the tenant's sites under these address levels, as a subquery (`d.asset_id in ${...}`). */
export const siteIdsUnderPath = (tenantId: number, path: readonly string[]) =>
  sql`(select a.id from assets a where a.tenant_id = ${tenantId} and ${underPath('a.address', path)})`;

/** The ids of the tenant's sites whose name matches the ILIKE pattern, as a subquery. */
export const siteIdsNamed = (tenantId: number, pattern: string) =>
  sql`(select a.id from assets a where a.tenant_id = ${tenantId} and a.name ilike ${pattern})`;

/** The name of the site an asset id column points at (null for none). */
export const siteNameOf = (assetIdColumn: string) =>
  sql<string | null>`(select a.name from assets a where a.id = ${sql.ref(assetIdColumn)})`;

/** Sites' names by id (columns `id`, `name`), to left join on an asset id column. */
export const siteNames = sql`(select a.id, a.name from assets a)`;

/** A site as an end of an entity mapping (its label is its name). */
export interface SiteEntity {
  id: number;
  name: string;
  label: string;
  type: null;
}

/** The site an asset id column points at as a mapping's end, null when the viewer may not see it. */
export const siteEntityOf = (viewer: Viewer, assetIdColumn: string) =>
  sql<SiteEntity | null>`(select json_build_object('id', a.id, 'name', a.name, 'label', a.name, 'type', null)
    from assets a where a.id = ${sql.ref(assetIdColumn)} and a.tenant_id = ${viewer.tenantId} and ${assetVisible(viewer, 'a.id')})`;

/** The sites' fields an entity count query may filter on, over the rows `countVisibleSites` counts. */
export const SITE_FIELDS = {
  id: sql`a.id`,
  name: sql`a.name`,
  createdAt: sql`a.created_at`,
  customerId: sql`a.customer_id`,
  metadata: (key: string) => sql`(a.metadata->>${key})`,
};

/** Counts the tenant's sites the viewer sees that meet every condition (written over SITE_FIELDS). */
export const countVisibleSites = (viewer: Viewer, conditions: readonly Expression<unknown>[]) =>
  sql<{ n: number }>`select count(*)::int as n from assets a where a.tenant_id = ${viewer.tenantId}
    and ${assetVisible(viewer, 'a.id')} ${conditions.length ? sql`and ${sql.join(conditions, sql` and `)}` : sql``}`;

export const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());
export const isoOf = (d: Date | string): string => new Date(d).toISOString();
