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

export const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());
export const isoOf = (d: Date | string): string => new Date(d).toISOString();
