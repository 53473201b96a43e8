import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { allOf, inList, matching, notInList, type ValueFilter, withinSites } from '../../platform/sql-lists.ts';

/** Reads of sites for dashboard widgets and row-level conditions (bounded, typed filters, tenant-scoped). */
export function createSiteDashboardReads(db: Db) {
  return {
    /** The tenant's site ids within `base` that pass the filters on id, customer and name. */
    async resolve(tenantId: number, base: number[] | 'all', filters: { id?: ValueFilter; customerId?: ValueFilter; name?: ValueFilter }) {
      const parts = [sql<boolean>`a.tenant_id = ${tenantId}`, withinSites('a.id', base)];
      if (filters.id) parts.push(...matching('a.id', filters.id));
      if (filters.customerId?.only) parts.push(inList('a.customer_id', filters.customerId.only));
      if (filters.customerId?.not.length)
        parts.push(sql<boolean>`(a.customer_id is null or ${notInList('a.customer_id', filters.customerId.not)})`);
      if (filters.name) parts.push(...matching('a.name', filters.name));
      const { rows } = await sql<{ id: number }>`select a.id from assets a where ${allOf(parts)} order by a.id`.execute(db);
      return rows.map((r) => r.id);
    },
    /** How many of these sites exist in the tenant within `base`. */
    async countWithin(tenantId: number, base: number[] | 'all', ids: number[]) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from assets a
        where a.tenant_id = ${tenantId} and ${inList('a.id', ids)} and ${withinSites('a.id', base)}`.execute(db);
      return rows[0]?.n ?? 0;
    },
    /** How many of these customers have a site within `base`. */
    async customersWithin(tenantId: number, base: number[] | 'all', ids: number[]) {
      const { rows } = await sql<{ n: number }>`select count(distinct a.customer_id)::int as n from assets a
        where a.tenant_id = ${tenantId} and ${inList('a.customer_id', ids)} and ${withinSites('a.id', base)}`.execute(db);
      return rows[0]?.n ?? 0;
    },
    /** Sites with a position (not both empty or zero, SPEC 5), by name, at most `limit` + 1 (to tell truncation). */
    async located(tenantId: number, sites: number[] | 'all', limit: number) {
      const { rows } = await sql<{ id: number; name: string; latitude: number; longitude: number }>`
        select a.id, a.name, a.latitude, a.longitude from assets a
        where a.tenant_id = ${tenantId} and ${withinSites('a.id', sites)}
          and a.latitude is not null and a.longitude is not null and not (a.latitude = 0 and a.longitude = 0)
        order by a.name, a.id limit ${limit + 1}`.execute(db);
      return rows;
    },
  };
}
export type SiteDashboardReads = ReturnType<typeof createSiteDashboardReads>;
