import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { contains, underPath } from './scope.ts';

/** SQL of users' site assignments (user_assets), for the users module through assignments.ts. */

export async function listUserSites(db: Db, tenantId: number, q: { userId: number; searchText?: string; page: number; limit: number }) {
  const where = [sql`ua.tenant_id = ${tenantId}`, sql`ua.user_id = ${q.userId}`];
  if (q.searchText) where.push(sql`a.name ilike ${contains(q.searchText)}`);
  const condition = sql<boolean>`${sql.join(where, sql` and `)}`;
  const [rows, total] = await Promise.all([
    db
      .selectFrom('user_assets as ua')
      .innerJoin('assets as a', 'a.id', 'ua.asset_id')
      .select(['ua.id', 'ua.user_id', 'ua.asset_id', 'ua.created_at', 'a.name', 'a.address'])
      .where(condition)
      .orderBy(sql`lower(a.name)`)
      .orderBy('ua.id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    db
      .selectFrom('user_assets as ua')
      .innerJoin('assets as a', 'a.id', 'ua.asset_id')
      .where(condition)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** The user's first `limit` sites by name, and how many sites the user has. */
export const firstSitesOf = (db: Db, tenantId: number, userId: number, limit: number) =>
  Promise.all([
    db
      .selectFrom('user_assets as ua')
      .innerJoin('assets as a', 'a.id', 'ua.asset_id')
      .select(['a.id', 'a.name'])
      .where('ua.tenant_id', '=', tenantId)
      .where('ua.user_id', '=', userId)
      .orderBy(sql`lower(a.name)`)
      .limit(limit)
      .execute(),
    db
      .selectFrom('user_assets')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
      .then((r) => r.n),
  ]);

/** The site ids each of the users looks after, in one query. */
export async function siteIdsByUser(db: Db, tenantId: number, userIds: number[]) {
  const byUser = new Map<number, number[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db
    .selectFrom('user_assets')
    .select(['user_id', 'asset_id'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .orderBy('asset_id')
    .execute();
  for (const r of rows) byUser.get(r.user_id)?.push(r.asset_id);
  return byUser;
}

/** Links the sites (of this tenant only) to the user; existing links stay. */
export async function assignSites(db: Db, tenantId: number, userId: number, by: { ids?: number[]; address?: string[] }, createdBy: number) {
  const which = by.address?.length ? underPath('a.address', by.address) : sql<boolean>`a.id = any(${by.ids ?? []}::int[])`;
  const result = await sql`
    insert into user_assets (tenant_id, user_id, asset_id, created_by)
    select ${tenantId}, ${userId}, a.id, ${createdBy} from assets a where a.tenant_id = ${tenantId} and ${which}
    on conflict (user_id, asset_id) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Replaces the user's site links with exactly these sites. */
export async function replaceSites(db: Db, tenantId: number, userId: number, assetIds: number[], createdBy: number) {
  await db
    .deleteFrom('user_assets')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .$if(assetIds.length > 0, (q) => q.where('asset_id', 'not in', assetIds))
    .execute();
  if (assetIds.length === 0) return;
  await sql`
    insert into user_assets (tenant_id, user_id, asset_id, created_by)
    select ${tenantId}, ${userId}, a.id, ${createdBy} from assets a where a.tenant_id = ${tenantId} and a.id = any(${assetIds}::int[])
    on conflict (user_id, asset_id) do nothing`.execute(db);
}

export const removeSites = (db: Db, tenantId: number, userId: number, assetIds: number[]) =>
  db
    .deleteFrom('user_assets')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('asset_id', 'in', assetIds)
    .executeTakeFirst()
    .then((r) => Number(r.numDeletedRows));

export const findLink = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('user_assets')
    .select(['id', 'user_id', 'asset_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();

export const deleteLink = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('user_assets').where('tenant_id', '=', tenantId).where('id', '=', id).execute();

/** Sites of the tenant named, or coded (metadata.assetCode), by one of `keys` (case-insensitive): key → site ids. */
export async function siteIdsByNameOrCode(db: Db, tenantId: number, keys: string[]) {
  const wanted = [...new Set(keys.map((k) => k.trim().toLowerCase()).filter(Boolean))];
  const found = new Map<string, number[]>();
  if (wanted.length === 0) return found;
  const rows = await db
    .selectFrom('assets')
    .select(['id', sql<string>`lower(name)`.as('name'), sql<string | null>`lower(metadata->>'assetCode')`.as('code')])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb(sql`lower(name)`, 'in', wanted), eb(sql`lower(metadata->>'assetCode')`, 'in', wanted)]))
    .orderBy('id')
    .execute();
  for (const row of rows) {
    for (const key of new Set([row.name, row.code])) {
      if (key && wanted.includes(key)) found.set(key, [...(found.get(key) ?? []), row.id]);
    }
  }
  return found;
}
