import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { allOf, inList, matching, type ValueFilter, withinSites } from '../../platform/sql-lists.ts';
import { siteNameOf } from '../sites/scope.ts';

/** The devices a dashboard widget may read: the visible sites and the conditions on device id and type. */
export interface DeviceScope {
  tenantId: number;
  sites: number[] | 'all';
  ids: ValueFilter;
  types: ValueFilter;
}

const inScope = (s: DeviceScope, types: ValueFilter = s.types) =>
  allOf([
    sql<boolean>`d.tenant_id = ${s.tenantId}`,
    withinSites('d.asset_id', s.sites),
    ...matching('d.id', s.ids),
    ...matching('d.type', types),
  ]);

/** The ids of the devices in scope, as a subquery for other modules' reads (`x.device_id in ${...}`). */
export const deviceIdsInScope = (s: DeviceScope) => sql`(select d.id from devices d where ${inScope(s)})`;

/** Reads of devices for dashboard widgets (bounded, typed filters, tenant-scoped). */
export function createDeviceDashboardReads(db: Db) {
  return {
    /** Devices in scope among these ids, with their site's name. */
    async some(s: DeviceScope, ids: number[]) {
      if (ids.length === 0) return [];
      const { rows } = await sql<{
        id: number;
        label: string;
        status: string;
        asset_id: number | null;
        type: string;
        site_name: string | null;
      }>`
        select d.id, d.label, d.status, d.asset_id, d.type, ${siteNameOf('d.asset_id')} as site_name
        from devices d where ${inList('d.id', ids)} and ${inScope(s)}`.execute(db);
      return rows;
    },
    /** Counts by type and status of the devices in scope (of these types when given), and the sites they stand at. */
    async summary(s: DeviceScope, types: ValueFilter, limit: number) {
      const { rows } = await sql<{ type: string; total: number; online: number; offline: number; notc: number }>`
        select d.type, count(*)::int as total,
          count(*) filter (where d.status = 'Online')::int as online,
          count(*) filter (where d.status = 'Offline')::int as offline,
          count(*) filter (where d.status not in ('Online', 'Offline'))::int as notc
        from devices d where ${inScope(s, types)} group by d.type order by d.type limit ${limit}`.execute(db);
      const { rows: sites } = await sql<{ n: number }>`
        select count(distinct d.asset_id)::int as n from devices d where ${inScope(s, types)}`.execute(db);
      return { rows, sites: sites[0]?.n ?? 0 };
    },
    /** Devices in scope and the offline ones, per site among these. */
    async countsBySite(s: DeviceScope, siteIds: number[]) {
      if (siteIds.length === 0) return new Map<number, { devices: number; offline: number }>();
      const { rows } = await sql<{ asset_id: number; devices: number; offline: number }>`
        select d.asset_id, count(*)::int as devices, count(*) filter (where d.status = 'Offline')::int as offline
        from devices d where ${inList('d.asset_id', siteIds)} and ${inScope(s)} group by d.asset_id`.execute(db);
      return new Map(rows.map((r) => [r.asset_id, { devices: r.devices, offline: r.offline }]));
    },
    /** How many of these devices exist in the tenant at sites within `base`. */
    async countWithin(tenantId: number, base: number[] | 'all', ids: number[]) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from devices d
        where d.tenant_id = ${tenantId} and ${inList('d.id', ids)} and ${withinSites('d.asset_id', base)}`.execute(db);
      return rows[0]?.n ?? 0;
    },
  };
}
export type DeviceDashboardReads = ReturnType<typeof createDeviceDashboardReads>;
