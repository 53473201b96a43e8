import type { Db } from '../../platform/db.ts';

/** The SQL of the packing tables each camera watches (video_camera_tables). */

/** Table numbers in the order people count them: T-2 before T-10. */
export const inTableOrder = (tables: string[]) => [...tables].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));

/** The tables of these cameras, by camera, in table order. */
export async function tablesOfCameras(db: Db, tenantId: number, deviceIds: number[]): Promise<Map<number, string[]>> {
  const byCamera = new Map<number, string[]>();
  if (deviceIds.length === 0) return byCamera;
  const rows = await db
    .selectFrom('video_camera_tables')
    .select(['device_id', 'table_number'])
    .where('tenant_id', '=', tenantId)
    .where('device_id', 'in', deviceIds)
    .execute();
  for (const r of rows) byCamera.set(r.device_id, [...(byCamera.get(r.device_id) ?? []), r.table_number]);
  for (const [id, tables] of byCamera) byCamera.set(id, inTableOrder(tables));
  return byCamera;
}

/** The first of these tables that another camera already watches, with that camera. */
export const tableWatchedElsewhere = (db: Db, tenantId: number, tables: string[], deviceId: number) =>
  tables.length === 0
    ? Promise.resolve(undefined)
    : db
        .selectFrom('video_camera_tables')
        .select(['table_number', 'device_id'])
        .where('tenant_id', '=', tenantId)
        .where('table_number', 'in', tables)
        .where('device_id', '<>', deviceId)
        .orderBy('table_number')
        .executeTakeFirst();

/** The camera that watches a table. */
export const cameraOfTable = async (db: Db, tenantId: number, table: string) =>
  (
    await db
      .selectFrom('video_camera_tables')
      .select('device_id')
      .where('tenant_id', '=', tenantId)
      .where('table_number', '=', table)
      .executeTakeFirst()
  )?.device_id ?? null;

/** Makes these the camera's tables. Call it in a transaction. */
export async function replaceCameraTables(trx: Db, tenantId: number, deviceId: number, tables: string[]) {
  await trx.deleteFrom('video_camera_tables').where('tenant_id', '=', tenantId).where('device_id', '=', deviceId).execute();
  if (tables.length === 0) return;
  await trx
    .insertInto('video_camera_tables')
    .values(tables.map((table_number) => ({ tenant_id: tenantId, device_id: deviceId, table_number })))
    .execute();
}
