import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { devicesLabelled, siteHasDevices, siteWorstAlarmRank } from '../devices/scope.ts';
import { assetVisible, contains, underPath, type Viewer } from './scope.ts';

/**
 * SQL of the asset tree: one level at a time (address levels, then the sites of a full address), so the browser
 * only ever holds the nodes a person opened.
 */

const SITE = { tenantId: 'a.tenant_id', id: 'a.id' };

function visibleUnder(db: Db, viewer: Viewer, path: readonly string[]) {
  return db
    .selectFrom('assets as a')
    .where('a.tenant_id', '=', viewer.tenantId)
    .where(assetVisible(viewer, 'a.id'))
    .where(underPath('a.address', path));
}

/** How many child levels and sites a node has, and how many sites lie under it in all. */
export async function levelCounts(db: Db, viewer: Viewer, path: readonly string[]) {
  const depth = path.length;
  const row = await visibleUnder(db, viewer, path)
    .select([
      sql<number>`count(distinct a.address[${sql.lit(depth + 1)}]) filter (where cardinality(a.address) > ${sql.lit(depth)})::int`.as(
        'levels',
      ),
      sql<number>`count(*) filter (where cardinality(a.address) = ${sql.lit(depth)})::int`.as('sites'),
      sql<number>`count(*)::int`.as('under'),
    ])
    .executeTakeFirstOrThrow();
  return row;
}

/** The next address level under the path, with the number of sites under each. */
export const childLevels = (db: Db, viewer: Viewer, path: readonly string[], offset: number, limit: number) => {
  const next = sql<string>`a.address[${sql.lit(path.length + 1)}]`;
  return visibleUnder(db, viewer, path)
    .where(sql<boolean>`cardinality(a.address) > ${sql.lit(path.length)}`)
    .select([next.as('text'), sql<number>`count(*)::int`.as('count')])
    .groupBy(next)
    .orderBy(sql`lower(${next})`)
    .orderBy(next)
    .offset(offset)
    .limit(limit)
    .execute();
};

/** The sites whose address is exactly the path, with their worst alarm and whether they have devices. */
export const sitesAt = (db: Db, viewer: Viewer, path: readonly string[], offset: number, limit: number) =>
  db
    .selectFrom('assets as a')
    .where('a.tenant_id', '=', viewer.tenantId)
    .where(assetVisible(viewer, 'a.id'))
    .where(sql<boolean>`a.address = ${[...path]}::text[]`)
    .select(['a.id', 'a.name', 'a.address', siteWorstAlarmRank(SITE).as('alarm_rank'), siteHasDevices(SITE).as('has_devices')])
    .orderBy(sql`lower(a.name)`)
    .orderBy('a.id')
    .offset(offset)
    .limit(limit)
    .execute();

/** Tree search: sites by name or code, devices by label, each with where it lives. */
export const searchSites = (db: Db, viewer: Viewer, text: string, limit: number) =>
  db
    .selectFrom('assets as a')
    .where('a.tenant_id', '=', viewer.tenantId)
    .where(assetVisible(viewer, 'a.id'))
    .where((eb) => eb.or([eb('a.name', 'ilike', contains(text)), eb(sql`a.metadata->>'assetCode'`, 'ilike', contains(text))]))
    .select(['a.id', 'a.name', 'a.address', siteWorstAlarmRank(SITE).as('alarm_rank'), siteHasDevices(SITE).as('has_devices')])
    .orderBy(sql`lower(a.name)`)
    .limit(limit)
    .execute();

export const searchDevices = (db: Db, viewer: Viewer, text: string, limit: number) =>
  db
    .selectFrom(devicesLabelled(db, viewer, text, limit).as('d'))
    .leftJoin('assets as a', 'a.id', 'd.asset_id')
    .selectAll('d')
    .select(['a.name as site_name', 'a.address'])
    .orderBy('d.label')
    .orderBy('d.id')
    .execute();
