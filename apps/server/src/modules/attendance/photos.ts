import type { Db } from '../../platform/db.ts';

/** Phone photos of check-ins: uploaded first, then claimed by the check-in that names them. */

export const insertPhoto = (db: Db, p: { uid: string; tenantId: number; userId: number; type: string; size: number; blobKey: string }) =>
  db
    .insertInto('attendance_photos')
    .values({ uid: p.uid, tenant_id: p.tenantId, user_id: p.userId, type: p.type, size: p.size, blob_key: p.blobKey })
    .returning(['uid'])
    .executeTakeFirstOrThrow();

/** The caller's own upload not yet claimed by a check-in. */
export const unclaimedPhoto = (db: Db, tenantId: number, userId: number, uid: string) =>
  db
    .selectFrom('attendance_photos')
    .select(['uid'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('uid', '=', uid)
    .where('record_id', 'is', null)
    .executeTakeFirst();

/** Claims the photo for the record; false when another check-in claimed it meanwhile. */
export const claimPhoto = async (db: Db, tenantId: number, uid: string, recordId: number) =>
  (
    await db
      .updateTable('attendance_photos')
      .set({ record_id: recordId })
      .where('tenant_id', '=', tenantId)
      .where('uid', '=', uid)
      .where('record_id', 'is', null)
      .executeTakeFirst()
  ).numUpdatedRows > 0n;

/** The records among these that have a phone photo. */
export const recordsWithPhotos = async (db: Db, tenantId: number, recordIds: number[]) =>
  recordIds.length === 0
    ? new Set<number>()
    : new Set(
        (
          await db
            .selectFrom('attendance_photos')
            .select('record_id')
            .where('tenant_id', '=', tenantId)
            .where('record_id', 'in', recordIds)
            .execute()
        ).map((r) => r.record_id as number),
      );

export const photoOf = (db: Db, tenantId: number, recordId: number) =>
  db
    .selectFrom('attendance_photos')
    .select(['type', 'blob_key'])
    .where('tenant_id', '=', tenantId)
    .where('record_id', '=', recordId)
    .executeTakeFirst();

/** Uploads of every tenant older than `before` that no check-in claimed (the cleanup job). */
export const staleUploads = (db: Db, before: Date) =>
  db
    .selectFrom('attendance_photos')
    .select(['uid', 'blob_key'])
    .where('record_id', 'is', null)
    .where('created_at', '<', before)
    .limit(1000)
    .execute();

export const deleteUploads = (db: Db, uids: string[]) =>
  uids.length === 0
    ? Promise.resolve()
    : db.deleteFrom('attendance_photos').where('uid', 'in', uids).where('record_id', 'is', null).execute();
