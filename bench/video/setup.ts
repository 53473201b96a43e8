import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { insertDevice } from '../../apps/server/src/modules/devices/repository.ts';
import { insertAsset } from '../../apps/server/src/modules/sites/repository.ts';
import { upsertCamera } from '../../apps/server/src/modules/video/repository.ts';
import { type DbHandle, openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh PostgreSQL database for one benchmark run, dropped by close(). */
export async function benchDatabase(): Promise<DbHandle> {
  const name = `sw_video_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), 5);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** The demo tenant with one site, a router, an NVR and `count` simulated cameras (recording on). */
export async function seedCameras(handle: DbHandle, count: number, segmentSec = 2) {
  const tenantId = await seedFoundation(handle.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
  const asset = await insertAsset(handle.db, tenantId, {
    name: 'Bench site',
    address: ['Bench'],
    latitude: null,
    longitude: null,
    metadata: {},
    customerId: null,
  });
  const meta = { muteDevice: false, maintenance: false, enableDevice: true };
  const token = () => randomBytes(8).toString('hex');
  const router = await insertDevice(handle.db, tenantId, {
    name: 'B:R',
    label: 'R',
    type: 'ROUTER',
    assetId: asset.id,
    parentId: null,
    templateId: null,
    accessToken: token(),
    metadata: meta,
  });
  const nvr = await insertDevice(handle.db, tenantId, {
    name: 'B:R:N',
    label: 'N',
    type: 'DVR',
    assetId: asset.id,
    parentId: router.id,
    templateId: null,
    accessToken: token(),
    metadata: meta,
  });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const cam = await insertDevice(handle.db, tenantId, {
      name: `B:R:N:C${i}`,
      label: `Cam ${i}`,
      type: 'CAMERA',
      assetId: asset.id,
      parentId: nvr.id,
      templateId: null,
      accessToken: token(),
      metadata: meta,
    });
    await upsertCamera(handle.db, tenantId, cam.id, {
      label: `Cam ${i}`,
      asset_id: asset.id,
      simulated: true,
      stream_url: null,
      recording_enabled: true,
      segment_sec: segmentSec,
      storage_id: null,
    });
    ids.push(cam.id);
  }
  return { tenantId, assetId: asset.id, cameraIds: ids };
}
