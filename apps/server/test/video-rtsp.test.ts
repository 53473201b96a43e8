import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Recorder } from '../src/modules/video/recorder.ts';
import { ensureTestClip } from '../src/platform/ffmpeg/index.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';
import { startRtspCamera } from './support/rtsp-camera.ts';

let t: TestApp;
let admin: TestClient;
let dir: string;
let recorder: Recorder;
let camera: Awaited<ReturnType<typeof startRtspCamera>>;
let cam: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'video-rtsp-'));
  // A lab setting: camera URLs may reach loopback (the default refuses it, see video.test.ts).
  process.env.VIDEO_STREAM_NETWORKS = 'any';
  t = await createTestApp({ DATA_DIR: dir, OUTBOUND_NETWORKS: '127.0.0.0/8' });
  delete process.env.VIDEO_STREAM_NETWORKS;
  admin = await t.login('customeradmin');
  const clip = await ensureTestClip(join(dir, 'clip.mp4'), { width: 320, height: 240 });
  camera = await startRtspCamera(clip, dir);
  const asset = (await admin.post('/iotapp/assets/', { name: 'RTSP site', address: ['Lab'] })).json();
  const router = (await admin.post('/iotapp/devices/', { label: 'R', type: 'ROUTER', assetId: asset.id })).json();
  const dvr = (await admin.post('/iotapp/devices/', { label: 'NVR', type: 'DVR', assetId: asset.id, parentId: router.id })).json();
  cam = (await admin.post('/iotapp/devices/', { label: 'Lab RTSP cam', type: 'CAMERA', assetId: asset.id, parentId: dvr.id })).json().id;
  recorder = t.handles.video.recorder;
  await recorder.start();
}, 60_000);

afterAll(async () => {
  await camera?.stop();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('RTSP camera', () => {
  it('records an RTSP stream with -c copy into indexed segments, streams it live over the WebSocket, and retries when the camera drops', async () => {
    const res = await admin.put(`/api/cameras/${cam}/configs/`, { streamUrl: camera.url, recordingEnabled: true, segmentSec: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('secret');
    const segments = () => t.db.selectFrom('video_segments').select(['bytes', 'start_at', 'end_at']).where('device_id', '=', cam).execute();
    const end = Date.now() + 30_000;
    while ((await segments()).length < 2 && Date.now() < end) {
      await recorder.flush();
      await new Promise((r) => setTimeout(r, 500));
    }
    const rows = await segments();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => Number(r.bytes) > 0)).toBe(true);
    expect((await admin.get(`/api/cameras/${cam}/`)).json().state).toBe('recording');

    // The low-latency path pulls the same camera (a second RTSP session) into fMP4 fragments over the WebSocket.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const messages = await new Promise<Buffer[]>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/cameras/${cam}/live/ws`, { headers: { host: 'localhost', cookie } });
      const got: Buffer[] = [];
      ws.on('message', (raw: Buffer) => {
        // fragments already on their way while the socket closes are not the first three
        if (got.length === 3) return;
        got.push(raw);
        if (got.length === 3) {
          ws.close();
          resolve(got);
        }
      });
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
      setTimeout(() => reject(new Error(`only ${got.length} messages`)), 20_000);
    });
    expect(messages.map((m) => m.toString('latin1', 12, 16))).toEqual(['ftyp', 'moof', 'moof']);

    await camera.stop();
    const until = Date.now() + 30_000;
    let state = '';
    while (state !== 'retrying' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      state = (await admin.get(`/api/cameras/${cam}/`)).json().state;
    }
    expect(state).toBe('retrying');
  }, 70_000);
});
