import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { DEMO_PASSWORD, DEMO_TENANTS, seedFoundation } from '../../apps/server/src/demo/foundation.ts';
import { insertDevice } from '../../apps/server/src/modules/devices/repository.ts';
import { insertAsset } from '../../apps/server/src/modules/sites/repository.ts';
import { upsertCamera } from '../../apps/server/src/modules/video/repository.ts';
import { type DbHandle, openPostgres } from '../../apps/server/src/platform/db.ts';
import { migrateToLatest } from '../../apps/server/src/platform/migrate.ts';
import { adminQuery, databaseUrl } from '../../apps/server/test/support/pg-admin.ts';

export const BENCH_CAPTCHA = 'BENCH';
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh PostgreSQL database for one benchmark run, dropped by close(). */
export async function benchDatabase(): Promise<DbHandle> {
  const name = `sw_video_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(ADMIN_URL, `create database ${name}`);
  const handle = openPostgres(databaseUrl(ADMIN_URL, name), 5);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(ADMIN_URL, `drop database if exists ${name} with (force)`);
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

/**
 * The product on a fresh database with `cameras` simulated cameras recording, listening on `port`, and Chromium
 * signed in as the customer admin: what the browser benchmarks of video screens start from.
 */
export async function openVideoBench(opts: { port: number; cameras: number; segmentSec: number; dataDirPrefix: string }) {
  const handle = await benchDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), opts.dataDirPrefix));
  process.env.VIDEO_SIM_SIZE = '1280x720';
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DEMO: 'false',
    PORT: String(opts.port),
    DATA_DIR: dataDir,
    CAPTCHA_FIXED_ANSWER: BENCH_CAPTCHA,
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
  });
  const { app, handles } = await buildApp({ config, database: handle, logger: false });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  const close = async () => {
    await browser.close();
    await app.close();
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const seeded = await seedCameras(handle, opts.cameras, opts.segmentSec);
    await app.listen({ port: opts.port, host: '127.0.0.1' });
    await handles.video.recorder.start();
    const page = await browser.newPage();
    const base = `http://localhost:${opts.port}`;
    await page.goto(`${base}/auth/login/`);
    await page.getByLabel(/username/i).fill('customeradmin');
    await page.getByLabel(/^password/i).fill(DEMO_PASSWORD);
    await page.getByLabel(/captcha/i).fill(BENCH_CAPTCHA);
    await page.getByRole('button', { name: /sign in|login|log in/i }).click();
    await page.waitForURL((u) => !u.pathname.includes('/login'));
    return { ...seeded, handle, page, base, close };
  } catch (error) {
    await close();
    throw error;
  }
}
