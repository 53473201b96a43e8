import type { Db } from '../../platform/db.ts';

/** Reads of cameras for dashboard widgets. */
export function createCameraDashboardReads(db: Db) {
  return {
    /** The camera's label when the device is a configured camera of the tenant, else null. */
    async label(tenantId: number, deviceId: number): Promise<string | null> {
      const row = await db
        .selectFrom('video_cameras')
        .select('label')
        .where('tenant_id', '=', tenantId)
        .where('device_id', '=', deviceId)
        .executeTakeFirst();
      return row ? row.label : null;
    },
  };
}
export type CameraDashboardReads = ReturnType<typeof createCameraDashboardReads>;
