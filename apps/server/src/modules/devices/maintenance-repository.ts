import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** The devices of a site (not the inventory's), by id. */
export const devicesOfSite = (db: Db, tenantId: number, assetId: number) =>
  db.selectFrom('devices').select(['id', 'type']).where('tenant_id', '=', tenantId).where('asset_id', '=', assetId).orderBy('id').execute();

/** Of these devices, the ones in maintenance mode now. */
export async function inMaintenance(db: Db, tenantId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('devices')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .where(sql<boolean>`(metadata ->> 'maintenance')::boolean is true`)
    .execute();
  return rows.map((r) => r.id);
}

/** The devices of the tenant among these ids, with their site. */
export const devicesByIds = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('devices')
        .select(['id', 'label', 'type', 'asset_id'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute();
