import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetVideoTools, probe, videoTools } from '../src/platform/ffmpeg/index.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';

/** A machine without a system ffmpeg: the build from the npm registry records the cameras. */
let t: TestApp;
let admin: TestClient;
let dataDir: string;

beforeAll(async () => {
  process.env.FFMPEG_SYSTEM = 'false';
  process.env.VIDEO_SIM_SIZE = '320x240';
  forgetVideoTools();
  dataDir = await mkdtemp(join(tmpdir(), 'video-bundled-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  admin = await t.login('customeradmin');
}, 60_000);

afterAll(async () => {
  await t?.handles.video.recorder.stop();
  await t?.close().catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
  delete process.env.FFMPEG_SYSTEM;
  delete process.env.VIDEO_SIM_SIZE;
  forgetVideoTools();
});

describe('cameras without a system ffmpeg', () => {
  it('records a simulated camera with the bundled ffmpeg and reads its segments with the bundled ffprobe', async () => {
    expect(videoTools().ffmpeg?.source).toBe('bundled');
    expect(videoTools().ffprobe?.source).toBe('bundled');
    const tools = (await admin.get('/api/video-tools/')).json();
    expect(tools).toMatchObject({ message: null });
    expect(tools.ffmpeg).toMatch(/\(bundled\)$/);

    const asset = (await admin.post('/iotapp/assets/', { name: 'Site Bundled', address: ['India', 'Pune'] })).json();
    const router = (await admin.post('/iotapp/devices/', { label: 'RTR-B', type: 'ROUTER', assetId: asset.id })).json();
    const dvr = (await admin.post('/iotapp/devices/', { label: 'DVR-B', type: 'DVR', assetId: asset.id, parentId: router.id })).json();
    const cam = (await admin.post('/iotapp/devices/', { label: 'CAM-B', type: 'CAMERA', assetId: asset.id, parentId: dvr.id })).json().id;
    expect((await admin.put(`/api/cameras/${cam}/configs/`, { simulated: true, recordingEnabled: true, segmentSec: 2 })).statusCode).toBe(
      200,
    );
    const recorder = t.handles.video.recorder;
    await recorder.start();

    const end = Date.now() + 40_000;
    let rows: unknown[] = [];
    while (Date.now() < end) {
      await recorder.flush();
      rows = await t.db.selectFrom('video_segments').select('file').where('device_id', '=', cam).execute();
      if (rows.length >= 2) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const camera = (await admin.get(`/api/cameras/${cam}/`)).json();
    expect(camera.state).toBe('recording');
    const snapshot = (await admin.get(`/api/cameras/${cam}/snapshot/`)).json();
    expect(snapshot).toHaveProperty('path');
  }, 60_000);

  it('probes a file with the bundled ffprobe', async () => {
    const clip = join(dataDir, 'probe.mp4');
    const { runFfmpeg } = await import('../src/platform/ffmpeg/index.ts');
    await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=1', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-y', clip]);
    const result = await probe(clip);
    expect(result.streams[0]).toMatchObject({ codecType: 'video', codecName: 'h264', width: 160, height: 120 });
  });
});
