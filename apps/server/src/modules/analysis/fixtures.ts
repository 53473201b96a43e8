import type { TestApp } from '../../../test/support/harness.ts';
import { createTestCamera } from '../video/fixtures.ts';

/** An unverified analysis result of tenant A on one of its cameras (what the sweep stores). */
export async function createTestResult(t: TestApp, camId?: number) {
  const camera = camId ?? (await createTestCamera(t)).camId;
  const row = await t.db
    .insertInto('analysis_results')
    .values({
      tenant_id: t.tenantA,
      device_id: camera,
      asset_id: null,
      analyser: 'black',
      at: new Date(),
      end_at: null,
      score: 0.5,
      frame_file: null,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  return row.id;
}
