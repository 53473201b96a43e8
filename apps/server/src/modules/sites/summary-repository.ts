import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import {
  placedStatusCounts,
  siteDeviceOfType,
  siteRouterStatus,
  siteStatusCounts,
  siteStatusCountsByType,
  siteVideoCounts,
} from '../devices/scope.ts';
import { assetVisible, contains, siteIdsUnderPath, underPath, type Viewer } from './scope.ts';

/**
 * SQL of the site summary and the map: counts are computed by PostgreSQL over the devices of the visible sites,
 * never by loading devices. Inventory and discovered devices (no site yet) are not part of any summary.
 */

/** The site of the summaries' subqueries. */
const SITE = { tenantId: 's.tenant_id', id: 's.id' };

export interface CountRow {
  total: number;
  online: number;
  offline: number;
  notC: number;
}

function siteFilter(viewer: Viewer, path: readonly string[] | undefined, searchText: string | undefined) {
  const parts = [sql`a.tenant_id = ${viewer.tenantId}`, sql`${assetVisible(viewer, 'a.id')}`];
  if (path?.length) parts.push(sql`${underPath('a.address', path)}`);
  if (searchText) parts.push(sql`(a.name ilike ${contains(searchText)} or a.metadata->>'assetCode' ilike ${contains(searchText)})`);
  return sql.join(parts, sql` and `);
}

/** Counts per device type and status (the cards of the site summary). */
export async function statusCountsByType(
  db: Db,
  viewer: Viewer,
  opts: { types?: readonly string[]; assetId?: number; path?: readonly string[] },
) {
  const atSites = (assetId: string) => {
    const parts: Expression<SqlBool>[] = [];
    if (!viewer.allSites) parts.push(assetVisible(viewer, assetId));
    if (opts.path?.length) parts.push(sql<boolean>`${sql.ref(assetId)} in ${siteIdsUnderPath(viewer.tenantId, opts.path)}`);
    return parts;
  };
  // The counts come by type and status; the pivot is done here.
  const result = await placedStatusCounts(viewer.tenantId, opts, atSites).execute(db);
  const byType = new Map<string, CountRow & { type: string }>();
  for (const row of result.rows) {
    const c = byType.get(row.type) ?? { type: row.type, total: 0, online: 0, offline: 0, notC: 0 };
    c.total += row.n;
    if (row.status === 'Online') c.online += row.n;
    else if (row.status === 'Offline') c.offline += row.n;
    else c.notC += row.n;
    byType.set(row.type, c);
  }
  return [...byType.values()];
}

const SUMMARY_ORDER = {
  name: sql`lower(s.name)`,
  total: sql`c.total`,
  online: sql`c.online`,
  offline: sql`c.offline`,
  notC: sql`c."notC"`,
};

/** One row per site with the counts of its devices (optionally of one type). */
export async function siteSummary(
  db: Db,
  viewer: Viewer,
  q: { page: number; limit: number; searchText?: string; orderBy: string; type?: string; path?: readonly string[] },
) {
  const where = siteFilter(viewer, q.path, q.searchText);
  const key = q.orderBy.replace('-', '') as keyof typeof SUMMARY_ORDER;
  const direction = q.orderBy.startsWith('-') ? sql`desc` : sql`asc`;
  // By name, only the page's sites are counted; sorting by a count needs every site's counts first.
  const byName = key === 'name' ? sql`order by lower(a.name) ${direction}, a.id limit ${q.limit} offset ${(q.page - 1) * q.limit}` : sql``;
  const [rows, total] = await Promise.all([
    sql<CountRow & { id: number; name: string; address: string[]; latitude: number | null; longitude: number | null }>`
      select s.id, s.name, s.address, s.latitude, s.longitude, c.total, c.online, c.offline, c."notC"
      from (select a.id, a.tenant_id, a.name, a.address, a.latitude, a.longitude from assets a where ${where} ${byName}) s
      cross join lateral (${siteStatusCounts(SITE, q.type)}) c
      order by ${SUMMARY_ORDER[key]} ${direction}, s.id
      ${key === 'name' ? sql`` : sql`limit ${q.limit} offset ${(q.page - 1) * q.limit}`}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from assets a where ${where}`.execute(db),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

/** The 'Site detailed summary' dialog: router status, DVRs, cameras, video loss and last update per site. */
export async function detailedSummary(
  db: Db,
  viewer: Viewer,
  q: { page: number; limit: number; searchText?: string; path?: readonly string[] },
) {
  const where = siteFilter(viewer, q.path, q.searchText);
  const [rows, total] = await Promise.all([
    sql<{
      id: number;
      name: string;
      site_id: string | null;
      router_status: string | null;
      dvr_count: number;
      dvr_offline: number;
      camera_count: number;
      camera_video_loss: number;
      last_updated: Date | null;
    }>`
      select s.id, s.name, s.metadata->>'assetCode' as site_id,
        ${siteRouterStatus(SITE)} as router_status,
        c.dvr_count, c.dvr_offline, c.camera_count, c.camera_video_loss, c.last_updated
      from (select a.id, a.tenant_id, a.name, a.metadata from assets a where ${where}
        order by lower(a.name), a.id limit ${q.limit} offset ${(q.page - 1) * q.limit}) s
      cross join lateral (${siteVideoCounts(SITE)}) c
      order by lower(s.name), s.id`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from assets a where ${where}`.execute(db),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

/**
 * Map markers: sites with a location (SPEC 5: not both latitude and longitude empty or zero), the status of the
 * site's parent device of the requested type, and the worst alarm of that device.
 */
export async function mapSites(
  db: Db,
  viewer: Viewer,
  q: { parentDevice: string; page: number; limit: number; searchText?: string; path?: readonly string[] },
) {
  const where = sql`${siteFilter(viewer, q.path, q.searchText)} and not (coalesce(a.latitude, 0) = 0 and coalesce(a.longitude, 0) = 0)`;
  const [rows, total] = await Promise.all([
    sql<{
      id: number;
      name: string;
      latitude: number;
      longitude: number;
      level1: string | null;
      status: string | null;
      alarm_status: string | null;
    }>`
      select s.id, s.name, s.latitude, s.longitude, s.address[1] as level1, p.status, p.alarm_status
      from (select a.id, a.tenant_id, a.name, a.latitude, a.longitude, a.address from assets a where ${where}
        order by a.id limit ${q.limit} offset ${(q.page - 1) * q.limit}) s
      left join lateral (${siteDeviceOfType(SITE, q.parentDevice)}) p on true
      order by s.id`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from assets a where ${where}`.execute(db),
  ]);
  return { rows: rows.rows, total: total.rows[0]?.n ?? 0 };
}

/** A site's device counts in all and per type (the map popup). */
export async function siteCounts(db: Db, tenantId: number, assetId: number) {
  const result = await siteStatusCountsByType(tenantId, assetId).execute(db);
  return result.rows;
}
