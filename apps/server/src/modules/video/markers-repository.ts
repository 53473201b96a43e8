import type { Db } from '../../platform/db.ts';

export async function insertMarkers(
  db: Db,
  tenantId: number,
  cameraIds: number[],
  m: { ref: string; label: string; from: Date; to: Date },
) {
  if (cameraIds.length === 0) return;
  await db
    .insertInto('video_markers')
    .values(cameraIds.map((id) => ({ tenant_id: tenantId, camera_id: id, ref: m.ref, label: m.label, starts_at: m.from, ends_at: m.to })))
    .execute();
}

/** Ends the markers of a reference at `at` (a window stopped early); markers that had not begun are removed. */
export async function endMarkers(db: Db, tenantId: number, ref: string, at: Date) {
  await db.deleteFrom('video_markers').where('tenant_id', '=', tenantId).where('ref', '=', ref).where('starts_at', '>=', at).execute();
  await db
    .updateTable('video_markers')
    .set({ ends_at: at })
    .where('tenant_id', '=', tenantId)
    .where('ref', '=', ref)
    .where('ends_at', '>', at)
    .execute();
}

export const markersOf = (db: Db, tenantId: number, cameraId: number, from: Date, to: Date) =>
  db
    .selectFrom('video_markers')
    .select(['ref', 'label', 'starts_at', 'ends_at'])
    .where('tenant_id', '=', tenantId)
    .where('camera_id', '=', cameraId)
    .where('starts_at', '<', to)
    .where('ends_at', '>', from)
    .orderBy('starts_at')
    .limit(200)
    .execute();

export const markersByRef = (db: Db, tenantId: number, ref: string) =>
  db
    .selectFrom('video_markers')
    .select(['camera_id', 'label', 'starts_at', 'ends_at'])
    .where('tenant_id', '=', tenantId)
    .where('ref', '=', ref)
    .execute();
