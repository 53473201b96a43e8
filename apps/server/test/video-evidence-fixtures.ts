import { createTestCamera } from '../src/modules/video/fixtures.ts';
import type { ObjectFixture } from './support/object-routes.ts';

/** A clip of tenant A's camera on a ticket of tenant A, ready (the evidence job's outcome, stored directly). */
export async function createTestEvidence(t: Parameters<ObjectFixture>[0], status: 'pending' | 'ready' = 'ready') {
  const { camId } = await createTestCamera(t, `Evidence Fixture ${Date.now()}`);
  const at = new Date(Date.now() - 3600_000);
  const row = await t.db
    .insertInto('video_evidence')
    .values({
      tenant_id: t.tenantA,
      ticket_id: 1,
      ticket_no: 'FX-1',
      device_id: camId,
      source: 'alarm',
      source_id: Date.now(),
      event_at: at,
      from_at: new Date(at.getTime() - 300_000),
      to_at: new Date(at.getTime() + 300_000),
      status,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), camId };
}

/** Path-parameter routes of the video evidence on tickets and the analysers' camera settings. */
export const evidenceObjectRoutes: Record<string, ObjectFixture> = {
  'GET /api/video-evidence/:id/clip/': async (t) => ({ params: { id: (await createTestEvidence(t)).id } }),
  'GET /api/analysis/cameras/:camId/settings/': async (t) => ({ params: { camId: (await createTestCamera(t)).camId } }),
  'PUT /api/analysis/cameras/:camId/settings/': async (t) => ({
    params: { camId: (await createTestCamera(t)).camId },
    payload: { region: { x: 0.5, y: 0.5, w: 0.5, h: 0.5 }, motionFrom: '20:00', motionTo: '06:00', timeZone: 'UTC', threshold: 1 },
  }),
};
