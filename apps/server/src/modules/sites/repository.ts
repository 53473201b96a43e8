import type { AssetInput, AssetListQuery } from '@sitewatch/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { siteDeviceCount } from '../devices/scope.ts';
import { assetVisible, contains, underPath, type Viewer } from './scope.ts';

/** The only SQL of sites: assets, their customers' names and their user assignments. */

const ORDER_COLUMNS = {
  name: sql`lower(a.name)`,
  createdAt: sql`a.created_at`,
  updatedAt: sql`a.updated_at`,
  id: sql`a.id`,
  assetCode: sql`a.metadata->>'assetCode'`,
} as const;

function baseAssets(db: Db, viewer: Viewer) {
  return db.selectFrom('assets as a').where('a.tenant_id', '=', viewer.tenantId).where(assetVisible(viewer, 'a.id'));
}

function withColumns(query: ReturnType<typeof baseAssets>) {
  return query
    .leftJoin('customers as c', 'c.id', 'a.customer_id')
    .select([
      'a.id',
      'a.name',
      'a.address',
      'a.latitude',
      'a.longitude',
      'a.metadata',
      'a.customer_id',
      'a.created_at',
      'a.updated_at',
      'c.name as customer_name',
      siteDeviceCount({ tenantId: 'a.tenant_id', id: 'a.id' }).as('device_count'),
    ]);
}
export type AssetRow = Awaited<ReturnType<typeof findAsset>> & {};

function filters(q: Partial<AssetListQuery>): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (q.ids?.length) where.push(sql<boolean>`a.id = any(${q.ids}::int[])`);
  if (q.name__iexact) where.push(sql<boolean>`lower(a.name) = lower(${q.name__iexact})`);
  if (q.name__icontains) where.push(sql<boolean>`a.name ilike ${contains(q.name__icontains)}`);
  if (q.metadata__assetCode) where.push(sql<boolean>`a.metadata->>'assetCode' = ${q.metadata__assetCode}`);
  if (q.metadata__merchantId) where.push(sql<boolean>`a.metadata->>'merchantId' = ${q.metadata__merchantId}`);
  if (q.customerId) where.push(sql<boolean>`a.customer_id = ${q.customerId}`);
  if (q.address?.length) where.push(underPath('a.address', q.address));
  if (q.hasLocation === true) where.push(sql<boolean>`not (coalesce(a.latitude, 0) = 0 and coalesce(a.longitude, 0) = 0)`);
  if (q.hasLocation === false) where.push(sql<boolean>`coalesce(a.latitude, 0) = 0 and coalesce(a.longitude, 0) = 0`);
  if (q.searchText) {
    const pattern = contains(q.searchText);
    const keys = q.searchKeys?.length ? q.searchKeys : ['name', 'assetCode', 'merchantId', 'address'];
    const parts = keys.map((key) => {
      if (key === 'name') return sql`a.name ilike ${pattern}`;
      if (key === 'assetCode') return sql`a.metadata->>'assetCode' ilike ${pattern}`;
      if (key === 'merchantId') return sql`a.metadata->>'merchantId' ilike ${pattern}`;
      return sql`array_to_string(a.address, ' ') ilike ${pattern}`;
    });
    where.push(sql<boolean>`(${sql.join(parts, sql` or `)})`);
  }
  return where;
}

export async function listAssets(db: Db, viewer: Viewer, q: AssetListQuery) {
  let query = baseAssets(db, viewer);
  for (const condition of filters(q)) query = query.where(condition);
  const [rows, total] = await Promise.all([
    withColumns(query)
      .orderBy(ORDER_COLUMNS[q.orderBy.replace('-', '') as keyof typeof ORDER_COLUMNS], q.orderBy.startsWith('-') ? 'desc' : 'asc')
      .orderBy('a.id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export const findAsset = (db: Db, viewer: Viewer, id: number) =>
  withColumns(baseAssets(db, viewer).where('a.id', '=', id)).executeTakeFirst();

export const nameTaken = (db: Db, tenantId: number, name: string, exceptId?: number) =>
  db
    .selectFrom('assets')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId as number))
    .executeTakeFirst()
    .then(Boolean);

export const customerExists = (db: Db, tenantId: number, customerId: number) =>
  db.selectFrom('customers').select('id').where('tenant_id', '=', tenantId).where('id', '=', customerId).executeTakeFirst().then(Boolean);

export const insertAsset = (db: Db, tenantId: number, input: AssetInput) =>
  db
    .insertInto('assets')
    .values({
      tenant_id: tenantId,
      name: input.name,
      address: input.address,
      latitude: input.latitude,
      longitude: input.longitude,
      metadata: JSON.stringify(input.metadata),
      customer_id: input.customerId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

export const updateAsset = (db: Db, tenantId: number, id: number, next: AssetInput) =>
  db
    .updateTable('assets')
    .set({
      name: next.name,
      address: next.address,
      latitude: next.latitude,
      longitude: next.longitude,
      metadata: JSON.stringify(next.metadata),
      customer_id: next.customerId,
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();

/** Deleting a site sends its devices back to the inventory (the foreign key sets asset_id to null). */
export const deleteAsset = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('assets').where('tenant_id', '=', tenantId).where('id', '=', id).execute();

export const userIdsForAsset = (db: Db, tenantId: number, assetId: number) =>
  db
    .selectFrom('user_assets')
    .select('user_id')
    .where('tenant_id', '=', tenantId)
    .where('asset_id', '=', assetId)
    .execute()
    .then((rows) => rows.map((r) => r.user_id));

export const assetIdsForUser = (db: Db, tenantId: number, userId: number) =>
  db
    .selectFrom('user_assets')
    .select('asset_id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('asset_id')
    .execute()
    .then((rows) => rows.map((r) => r.asset_id));

/** For other domains: a site by id regardless of the viewer. */
export const assetById = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('assets')
    .select(['id', 'name', 'address', 'metadata', 'latitude', 'longitude'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();

/** For other domains: a site by id if the viewer may see it. */
export const visibleAssetById = (db: Db, viewer: Viewer, id: number) =>
  db
    .selectFrom('assets')
    .select(['id', 'name', 'metadata'])
    .where('tenant_id', '=', viewer.tenantId)
    .where('id', '=', id)
    .where(assetVisible(viewer, 'id'))
    .executeTakeFirst();
