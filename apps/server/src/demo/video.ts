import { randomBytes } from 'node:crypto';
import { insertDevice } from '../modules/devices/repository.ts';
import { insertAsset } from '../modules/sites/repository.ts';
import { replaceCameraTables } from '../modules/video/camera-tables-repository.ts';
import { insertOnDemandSimulated, unconfiguredCameras, upsertCamera } from '../modules/video/repository.ts';
import { loadVideoSettings } from '../modules/video/settings.ts';
import type { Seeder } from './seeder.ts';

/**
 * Simulated cameras live from the first start in the demo tenant: one CCTV site with a router, an NVR and
 * DEMO_CAMERA_COUNT (6) cameras that loop the generated clip, recording continuously. DEMO_CAMERAS=false skips it.
 * The devices go through the sites-and-devices repositories so they are ordinary devices of the estate.
 */
export const videoSeeder: Seeder = {
  name: 'video-cameras',
  async run({ db, tenantId, slug, log }) {
    const settings = loadVideoSettings();
    if (slug !== 'demo' || !settings.DEMO_CAMERAS || settings.DEMO_CAMERA_COUNT === 0) return;
    const siteName = 'Demo CCTV Hub';
    const asset = await insertAsset(db, tenantId, {
      name: siteName,
      address: ['India', 'Maharashtra', 'Pune'],
      latitude: 18.5204,
      longitude: 73.8567,
      metadata: { assetCode: 'CCTV-001' },
      customerId: null,
    });
    const token = () => randomBytes(10).toString('hex');
    const metadata = { muteDevice: false, maintenance: false, enableDevice: true };
    const router = await insertDevice(db, tenantId, {
      name: `${siteName}:Router`,
      label: 'CCTV Hub Router',
      type: 'ROUTER',
      assetId: asset.id,
      parentId: null,
      templateId: null,
      accessToken: token(),
      metadata,
    });
    const nvr = await insertDevice(db, tenantId, {
      name: `${siteName}:Router:NVR`,
      label: 'CCTV Hub NVR',
      type: 'DVR',
      assetId: asset.id,
      parentId: router.id,
      templateId: null,
      accessToken: token(),
      metadata,
    });
    const names = ['Main Gate', 'Loading Bay', 'Reception', 'Parking', 'Warehouse Aisle', 'Back Door', 'Server Room', 'Perimeter'];
    for (let i = 0; i < settings.DEMO_CAMERA_COUNT; i++) {
      const label = names[i] ?? `Camera ${i + 1}`;
      const camera = await insertDevice(db, tenantId, {
        name: `${siteName}:Router:NVR:${label}`,
        label,
        type: 'CAMERA',
        assetId: asset.id,
        parentId: nvr.id,
        templateId: null,
        accessToken: token(),
        metadata,
      });
      await upsertCamera(db, tenantId, camera.id, {
        label,
        asset_id: asset.id,
        simulated: true,
        stream_url: null,
        recording_enabled: true,
        // 1 s segments: live view about 1.3 s behind (2 s segments: about 2.9 s), see bench/video/latency.ts
        segment_sec: 1,
        storage_id: null,
      });
    }
    log.info(`${settings.DEMO_CAMERA_COUNT} simulated cameras added to "${siteName}"`);
  },
};

/**
 * Every other CAMERA device of the demo estate is viewable too: configured as a simulated source without continuous
 * recording, so its ffmpeg runs only while someone watches it (live view lease, or the low-latency relay) and
 * stops after the viewers leave. Nothing runs for them at start. DEMO_CAMERAS=false leaves them unconfigured.
 */
export const videoOnDemandSeeder: Seeder = {
  name: 'video-on-demand-cameras',
  async run({ db, tenantId, slug, log }) {
    const settings = loadVideoSettings();
    if (slug !== 'demo' || !settings.DEMO_CAMERAS) return;
    const cameras = await unconfiguredCameras(db, tenantId);
    await insertOnDemandSimulated(db, tenantId, cameras);
    log.info(`${cameras.length} demo cameras viewable on demand (simulated)`);
  },
};

/** The packing tables the demo's recording cameras watch: an incident at T-1 … T-6 finds its camera by itself. */
const DEMO_CAMERA_TABLES: Record<string, string[]> = {
  'Loading Bay': ['T-1', 'T-2', 'T-3'],
  'Warehouse Aisle': ['T-4', 'T-5', 'T-6'],
};

/**
 * Table mappings for the demo's recording cameras; as a seeder of its own it also reaches data folders seeded
 * before cameras watched tables. Cameras renamed since are left alone.
 */
export const videoCameraTablesSeeder: Seeder = {
  name: 'video-camera-tables',
  async run({ db, tenantId, log }) {
    const cameras = await db
      .selectFrom('video_cameras')
      .select(['device_id', 'label'])
      .where('tenant_id', '=', tenantId)
      .where('recording_enabled', '=', true)
      .where('label', 'in', Object.keys(DEMO_CAMERA_TABLES))
      .orderBy('device_id')
      .execute();
    const mapped = new Set<string>();
    for (const camera of cameras) {
      if (mapped.has(camera.label)) continue;
      mapped.add(camera.label);
      await replaceCameraTables(db, tenantId, camera.device_id, DEMO_CAMERA_TABLES[camera.label] ?? []);
    }
    if (mapped.size) log.info(`packing tables mapped to ${[...mapped].join(', ')}`);
  },
};
