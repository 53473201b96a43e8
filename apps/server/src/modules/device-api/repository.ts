import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

export interface SharedAttributeRow {
  key: string;
  value: unknown;
  updated_at: Date;
}

/** SQL of shared attributes (`device_shared_attributes`), always within one tenant's device. */
export const sharedAttributes = (db: Db, tenantId: number, deviceId: number, keys?: string[]): Promise<SharedAttributeRow[]> => {
  let q = db
    .selectFrom('device_shared_attributes')
    .select(['key', 'value', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId);
  if (keys) {
    if (keys.length === 0) return Promise.resolve([]);
    q = q.where('key', 'in', keys);
  }
  return q.orderBy('key').execute();
};

/** How many shared attributes the device would hold with these keys set. */
export async function sharedCountWith(db: Db, tenantId: number, deviceId: number, keys: string[]) {
  const row = await db
    .selectFrom('device_shared_attributes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .where('key', 'not in', keys)
    .executeTakeFirst();
  return Number(row?.n ?? 0) + keys.length;
}

/** Sets the values; returns the keys whose value changed (a value set again unchanged is not an update). */
export async function upsertShared(db: Db, tenantId: number, deviceId: number, values: Record<string, unknown>) {
  const entries = Object.entries(values);
  if (entries.length === 0) return [];
  return db
    .insertInto('device_shared_attributes')
    .values(entries.map(([key, value]) => ({ tenant_id: tenantId, device_id: deviceId, key, value: JSON.stringify(value) })))
    .onConflict((oc) =>
      oc
        .columns(['device_id', 'key'])
        .doUpdateSet({ value: sql`excluded.value`, updated_at: sql`now()` })
        .where(sql<boolean>`device_shared_attributes.value is distinct from excluded.value`),
    )
    .returning(['key', 'value'])
    .execute();
}

export async function deleteShared(db: Db, tenantId: number, deviceId: number, keys: string[]) {
  if (keys.length === 0) return [];
  const rows = await db
    .deleteFrom('device_shared_attributes')
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .where('key', 'in', keys)
    .returning('key')
    .execute();
  return rows.map((r) => r.key);
}
