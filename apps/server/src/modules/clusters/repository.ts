import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { assetVisible, contains, siteIdsUnderPath, siteNameOf, type Viewer } from '../sites/scope.ts';

/** SQL of clusters and their sites (the only code reading these tables). */

const columns = [
  'c.id',
  'c.name',
  'c.description',
  'c.city_lead_id',
  'c.area_head_id',
  'c.regional_head_id',
  'c.created_at',
  'c.updated_at',
] as const;

/** The cluster has a site the viewer sees (all-site roles see every cluster, even one without sites). */
const clusterVisible = (viewer: Viewer): Expression<SqlBool> =>
  viewer.allSites
    ? sql<boolean>`true`
    : sql<boolean>`exists (select 1 from cluster_sites cs where cs.cluster_id = c.id and ${assetVisible(viewer, 'cs.asset_id')})`;

export async function listClusters(db: Db, viewer: Viewer, q: { searchText?: string; page: number; limit: number; orderBy: string }) {
  let query = db.selectFrom('clusters as c').where('c.tenant_id', '=', viewer.tenantId).where(clusterVisible(viewer));
  if (q.searchText) query = query.where('c.name', 'ilike', contains(q.searchText));
  const desc = q.orderBy.startsWith('-');
  const key = q.orderBy.replace('-', '') === 'createdAt' ? sql`c.created_at` : sql`lower(c.name)`;
  const [rows, total] = await Promise.all([
    query
      .select(columns)
      .orderBy(key, desc ? 'desc' : 'asc')
      .orderBy('c.id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type ClusterRow = Awaited<ReturnType<typeof listClusters>>['rows'][number];

/** The cluster, when the viewer sees it (`anyway`: the tenant's cluster whatever its sites, after the viewer's own change). */
export const findCluster = (db: Db, viewer: Viewer, id: number, anyway = false) =>
  db
    .selectFrom('clusters as c')
    .select(columns)
    .where('c.tenant_id', '=', viewer.tenantId)
    .where('c.id', '=', id)
    .$if(!anyway, (q) => q.where(clusterVisible(viewer)))
    .executeTakeFirst();

/** The clusters' sites the viewer sees, by name, per cluster. */
export async function visibleSites(db: Db, viewer: Viewer, clusterIds: number[]) {
  const out = new Map<number, { id: number; name: string }[]>();
  if (clusterIds.length === 0) return out;
  const rows = await db
    .selectFrom('cluster_sites as cs')
    .select(['cs.cluster_id', 'cs.asset_id', siteNameOf('cs.asset_id').as('name')])
    .where('cs.tenant_id', '=', viewer.tenantId)
    .where('cs.cluster_id', 'in', clusterIds)
    .where(assetVisible(viewer, 'cs.asset_id'))
    .orderBy(sql`2`)
    .execute();
  for (const r of rows) {
    const list = out.get(r.cluster_id) ?? [];
    list.push({ id: r.asset_id, name: r.name ?? '' });
    out.set(r.cluster_id, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  return out;
}

/** Of these ids, the tenant's sites the viewer sees. */
export async function visibleSiteIds(db: Db, viewer: Viewer, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom(sql<{ id: number }>`(select unnest(${sql.val(ids)}::int[]) as id)`.as('x'))
    .select('x.id')
    .where(sql<boolean>`x.id in ${siteIdsUnderPath(viewer.tenantId, [])}`)
    .where(assetVisible(viewer, 'x.id'))
    .execute();
  return rows.map((r) => r.id);
}

export const nameTaken = (db: Db, tenantId: number, name: string, exceptId?: number) =>
  db
    .selectFrom('clusters')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
    .executeTakeFirst()
    .then(Boolean);

export interface ClusterWrite {
  name: string;
  description: string | null;
  cityLeadId: number | null;
  areaHeadId: number | null;
  regionalHeadId: number | null;
}

export const insertCluster = (db: Db, tenantId: number, c: ClusterWrite, createdBy: number | null) =>
  db
    .insertInto('clusters')
    .values({
      tenant_id: tenantId,
      name: c.name,
      description: c.description,
      city_lead_id: c.cityLeadId,
      area_head_id: c.areaHeadId,
      regional_head_id: c.regionalHeadId,
      created_by: createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

export const updateCluster = (db: Db, tenantId: number, id: number, c: ClusterWrite) =>
  db
    .updateTable('clusters')
    .set({
      name: c.name,
      description: c.description,
      city_lead_id: c.cityLeadId,
      area_head_id: c.areaHeadId,
      regional_head_id: c.regionalHeadId,
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export const deleteCluster = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('clusters').where('tenant_id', '=', tenantId).where('id', '=', id).execute();

/** Leaves the cluster with exactly these of the viewer's sites; sites the viewer cannot see stay as they are. */
export async function replaceVisibleSites(db: Db, viewer: Viewer, clusterId: number, assetIds: number[]) {
  await db
    .deleteFrom('cluster_sites as cs')
    .where('cs.tenant_id', '=', viewer.tenantId)
    .where('cs.cluster_id', '=', clusterId)
    .where(assetVisible(viewer, 'cs.asset_id'))
    .$if(assetIds.length > 0, (q) => q.where('cs.asset_id', 'not in', assetIds))
    .execute();
  if (assetIds.length === 0) return;
  await db
    .insertInto('cluster_sites')
    .values(assetIds.map((asset_id) => ({ tenant_id: viewer.tenantId, cluster_id: clusterId, asset_id })))
    .onConflict((oc) => oc.columns(['cluster_id', 'asset_id']).doNothing())
    .execute();
}

export const siteIdsOf = (db: Db, tenantId: number, clusterId: number) =>
  db
    .selectFrom('cluster_sites')
    .select('asset_id')
    .where('tenant_id', '=', tenantId)
    .where('cluster_id', '=', clusterId)
    .orderBy('asset_id')
    .execute()
    .then((rows) => rows.map((r) => r.asset_id));

export const allClusters = (db: Db, tenantId: number) =>
  db.selectFrom('clusters').select(['id', 'name']).where('tenant_id', '=', tenantId).orderBy(sql`lower(name)`).orderBy('id').execute();

export async function siteIdsByCluster(db: Db, tenantId: number, clusterIds: number[]) {
  const out = new Map<number, number[]>();
  if (clusterIds.length === 0) return out;
  const rows = await db
    .selectFrom('cluster_sites')
    .select(['cluster_id', 'asset_id'])
    .where('tenant_id', '=', tenantId)
    .where('cluster_id', 'in', clusterIds)
    .orderBy('asset_id')
    .execute();
  for (const r of rows) out.set(r.cluster_id, [...(out.get(r.cluster_id) ?? []), r.asset_id]);
  return out;
}
