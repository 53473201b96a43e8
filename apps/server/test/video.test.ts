import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { applyRetention } from '../src/modules/video/jobs.ts';
import { moofStartsWithKeyframe } from '../src/modules/video/live-relay.ts';
import { createVideoPaths } from '../src/modules/video/paths.ts';
import type { Recorder } from '../src/modules/video/recorder.ts';
import { loadVideoSettings } from '../src/modules/video/settings.ts';
import { probe } from '../src/platform/ffmpeg/index.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

process.env.VIDEO_SIM_SIZE = '320x240';

let t: TestApp;
let admin: TestClient;
let dataDir: string;
let recorder: Recorder;
let cam: number;
let other: number;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createCamera(client: TestClient, label: string) {
  const asset = (await client.post('/iotapp/assets/', { name: `Site ${label}`, address: ['India', 'Pune'] })).json();
  const router = (await client.post('/iotapp/devices/', { label: `Router ${label}`, type: 'ROUTER', assetId: asset.id })).json();
  const dvr = (
    await client.post('/iotapp/devices/', { label: `DVR ${label}`, type: 'DVR', assetId: asset.id, parentId: router.id })
  ).json();
  const camera = await client.post('/iotapp/devices/', { label, type: 'CAMERA', assetId: asset.id, parentId: dvr.id });
  expect(camera.statusCode).toBe(201);
  return camera.json().id as number;
}

async function segments(id: number) {
  return t.db.selectFrom('video_segments').selectAll().where('device_id', '=', id).orderBy('start_at').execute();
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 25_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await recorder.flush();
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(400);
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'video-test-'));
  // stream URLs of the site network 10.0.0.0/8 are saved, never dialled (recording stays off for them)
  t = await createTestApp({ DATA_DIR: dataDir, OUTBOUND_NETWORKS: 'public 10.0.0.0/8' });
  admin = await t.login('customeradmin');
  cam = await createCamera(admin, 'Gate Cam');
  other = await createCamera(admin, 'Yard Cam');
  const configured = await admin.put(`/api/cameras/${cam}/configs/`, { simulated: true, recordingEnabled: true, segmentSec: 2 });
  expect(configured.statusCode).toBe(200);
  recorder = t.handles.video.recorder;
  await recorder.start();
}, 60_000);

afterAll(async () => {
  await t?.close().catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
  delete process.env.VIDEO_SIM_SIZE;
});

describe('video recording', () => {
  it('records 2 s segments with -c copy and indexes them by camera and time', async () => {
    const rows = await waitFor('three segments', async () => {
      const r = await segments(cam);
      return r.length >= 3 && r;
    });
    for (const [i, s] of rows.entries()) {
      expect(Number(s.bytes)).toBeGreaterThan(0);
      const ms = new Date(s.end_at).getTime() - new Date(s.start_at).getTime();
      expect(ms).toBeGreaterThan(1500);
      expect(ms).toBeLessThan(2600);
      if (i > 0) expect(Math.abs(new Date(s.start_at).getTime() - new Date(rows[i - 1]?.end_at as Date).getTime())).toBeLessThan(50);
    }
    const camera = (await admin.get(`/api/cameras/${cam}/`)).json();
    expect(camera).toMatchObject({ configured: true, simulated: true, state: 'recording' });
    const list = (await admin.get('/api/cameras/?search=gate')).json();
    expect(list.contents.map((c: { id: number }) => c.id)).toEqual([cam]);
  }, 40_000);

  it('plays back a range as an HLS playlist of the right duration, served from the camera footage only', async () => {
    const rows = await segments(cam);
    const first = rows[0] as (typeof rows)[number];
    const from = new Date(new Date(first.start_at).getTime() + 500);
    const to = new Date(new Date(first.start_at).getTime() + 4000);
    const res = await admin.get(`/api/cameras/${cam}/playback.m3u8?from=${from.toISOString()}&to=${to.toISOString()}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('mpegurl');
    const durations = [...res.body.matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
    const total = durations.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(3.5);
    expect(total).toBeLessThanOrEqual(6.1);
    expect(res.body).toContain('#EXT-X-START:TIME-OFFSET=0.500');
    expect(res.body).toContain('#EXT-X-ENDLIST');
    const media = res.body.split('\n').filter((l) => l.startsWith('/api/cameras/'));
    const segment = await admin.get(media[0] as string);
    expect(segment.statusCode).toBe(200);
    expect(segment.rawPayload.length).toBe(Number(first.bytes));
    const init = /URI="([^"]+)"/.exec(res.body)?.[1] as string;
    expect((await admin.get(init)).statusCode).toBe(200);

    const timeline = (
      await admin.get(`/api/cameras/${cam}/timeline/?from=${new Date(Date.now() - 600_000).toISOString()}&to=${new Date().toISOString()}`)
    ).json();
    expect(timeline.ranges.length).toBeGreaterThanOrEqual(1);

    const empty = await admin.get(`/api/cameras/${cam}/playback.m3u8?from=2020-01-01T00:00:00Z&to=2020-01-01T00:01:00Z`);
    expect(empty.statusCode).toBe(404);
    expect((await admin.get(`/api/cameras/${cam}/playback.m3u8?from=2020-01-01T00:01:00Z&to=2020-01-01T00:00:00Z`)).statusCode).toBe(400);
    expect((await admin.get(`/api/cameras/${cam}/playback.m3u8?from=yesterday&to=now`)).statusCode).toBe(400);
  });

  it('refuses paths that leave the camera footage', async () => {
    const run = (await segments(cam))[0]?.run as string;
    for (const url of [
      `/api/cameras/${cam}/media/${run}/..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
      `/api/cameras/${cam}/media/..%2F${run}/init.mp4`,
      `/api/cameras/${cam}/media/${run}/live.m3u8`,
      `/api/cameras/${cam}/media/${run}/seg-0.m4s%00.mp4`,
    ]) {
      const res = await admin.get(url);
      expect([400, 404]).toContain(res.statusCode);
      expect(res.body).not.toContain('root:');
    }
    // a run of this camera named under another camera is not found
    expect((await admin.get(`/api/cameras/${other}/media/${run}/init.mp4`)).statusCode).toBe(404);
    const paths = createVideoPaths(dataDir);
    expect(() => paths.mediaFile('_default', t.tenantA, cam, run, '../../x')).toThrow();
    expect(() => paths.mediaFile('../..', t.tenantA, cam, run, 'init.mp4')).toThrow();
  });

  it('takes a snapshot from the latest segment and serves the live playlist; DELETE live-view ends the lease', async () => {
    const snap = await admin.get(`/api/cameras/${cam}/snapshot/`);
    expect(snap.statusCode).toBe(200);
    const body = snap.json();
    expect(body.path).toMatch(new RegExp(`^/api/cameras/${cam}/snapshot/image/`));
    const image = await admin.get(body.path);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect((await admin.get(`/api/cameras/${other}/snapshot/`)).json()).toHaveProperty('err');

    const live = (await admin.get(`/api/cameras/${cam}/live-view/`)).json();
    expect(live.url).toBe(`/api/cameras/${cam}/live.m3u8`);
    const playlist = await admin.get(live.url);
    expect(playlist.statusCode).toBe(200);
    expect(playlist.body).toMatch(new RegExp(`/api/cameras/${cam}/media/[a-z0-9]+/seg-\\d+\\.m4s`));
    expect((await admin.delete(`/api/cameras/${cam}/live-view/`)).statusCode).toBe(200);
    const row = await t.db.selectFrom('video_cameras').select('live_until').where('device_id', '=', cam).executeTakeFirstOrThrow();
    expect(row.live_until).toBeNull();
  });

  it('exports a clip as a valid MP4 of the requested length through a batch download job', async () => {
    const rows = await segments(cam);
    const from = new Date(new Date((rows[0] as (typeof rows)[number]).start_at).getTime());
    const to = new Date(from.getTime() + 4000);
    // The download button learns of the job by push, also when every earlier job was complete.
    const pushed: Array<{ type: string; userIds?: number[]; payload?: unknown }> = [];
    const stop = t.handles.events.subscribe((e) => pushed.push(e));
    const created = await admin.post('/api/batch-playback-download/', {
      cameraIds: [cam],
      windows: [{ from: from.toISOString(), to: to.toISOString() }],
    });
    expect(created.statusCode).toBe(200);
    const { jobId, taskCount, warning } = created.json();
    expect(taskCount).toBe(1);
    expect(warning).toBeNull();
    await t.app.jobs.drain();
    const job = (await admin.get(`/api/video-clips/${jobId}/`)).json();
    expect(job).toMatchObject({ status: 'ready-to-download', kind: 'clips', progress: 100 });
    stop?.();
    const progress = pushed
      .filter((e) => e.type === 'job.progress')
      .map((e) => e.payload as { jobId: number; kind: string; status: string });
    expect(progress.filter((p) => p.jobId === jobId && p.kind === 'clips').map((p) => p.status)).toEqual(
      expect.arrayContaining(['starting', 'ready-to-download']),
    );
    const task = job.tasks[0];
    expect(task).toMatchObject({ status: 'ready-to-download', description: 'file processed successfully', progress: 100 });
    const file = await admin.get(task.path);
    expect(file.statusCode).toBe(200);
    const out = join(dataDir, 'clip.mp4');
    await writeFile(out, file.rawPayload);
    const probed = await probe(out);
    expect(probed.formatName).toContain('mp4');
    expect(probed.streams[0]).toMatchObject({ codecType: 'video', codecName: 'h264', width: 320, height: 240 });
    expect(probed.durationSec).toBeGreaterThan(3.5);
    expect(probed.durationSec).toBeLessThan(4.6);

    // The same job in the downloads list of SPEC 2.8, marked downloaded through it.
    const listed = (await admin.get('/api/batch-playback-download/')).json();
    expect(listed.jobs.find((j: { jobId: number; kind: string }) => j.kind === 'clips' && j.jobId === jobId)).toMatchObject({
      status: 'ready-to-download',
    });
    const done = (await admin.put(`/api/batch-playback-download/${jobId}/?kind=clips`, { tid: task.tid })).json();
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    expect(done.tasks[0].isRead).toBe(true);

    const tooMany = await admin.post('/api/batch-playback-download/', {
      cameraIds: [cam],
      windows: Array.from({ length: 51 }, (_, i) => ({
        from: new Date(from.getTime() - (i + 1) * 60_000).toISOString(),
        to: new Date(from.getTime() - i * 60_000).toISOString(),
      })),
    });
    expect(tooMany.statusCode).toBe(400); // at most 50 windows per request
    const limited = await admin.post('/api/batch-playback-download/', {
      cameraIds: [cam],
      windows: Array.from({ length: 50 }, (_, i) => ({
        from: from.toISOString(),
        to: new Date(from.getTime() + (i + 1) * 1000).toISOString(),
      })),
    });
    expect(limited.json().warning).toBeNull();
    expect((await admin.delete(`/api/video-clips/${limited.json().jobId}/`)).statusCode).toBe(200);
    expect((await admin.get(`/api/video-clips/${limited.json().jobId}/`)).statusCode).toBe(404);
  }, 30_000);

  it('retries a camera that drops and shows the gap on the timeline', async () => {
    const before = new Set((await segments(cam)).map((s) => s.run));
    recorder.dropForTest(t.tenantA, cam);
    const rows = await waitFor('segments of a new run', async () => {
      const r = await segments(cam);
      return r.some((s) => !before.has(s.run)) && r;
    });
    const from = new Date(new Date((rows[0] as (typeof rows)[number]).start_at).getTime() - 1000);
    const timeline = (await admin.get(`/api/cameras/${cam}/timeline/?from=${from.toISOString()}&to=${new Date().toISOString()}`)).json();
    expect(timeline.ranges.length).toBeGreaterThanOrEqual(2);
    const playlist = await admin.get(`/api/cameras/${cam}/playback.m3u8?from=${from.toISOString()}&to=${new Date().toISOString()}`);
    expect(playlist.body).toContain('#EXT-X-DISCONTINUITY');
  }, 40_000);

  it('keeps other tenants and unassigned users away from the camera', async () => {
    const outsider = await t.login('customeradmin', HOST_B);
    const run = (await segments(cam))[0]?.run as string;
    const now = new Date().toISOString();
    const hour = new Date(Date.now() - 3600_000).toISOString();
    for (const [method, url, payload] of [
      ['GET', `/api/cameras/${cam}/`],
      ['GET', `/api/cameras/${cam}/snapshot/`],
      ['GET', `/api/cameras/${cam}/live-view/`],
      ['DELETE', `/api/cameras/${cam}/live-view/`],
      ['GET', `/api/cameras/${cam}/live.m3u8`],
      ['GET', `/api/cameras/${cam}/playback.m3u8?from=${hour}&to=${now}`],
      ['GET', `/api/cameras/${cam}/timeline/?from=${hour}&to=${now}`],
      ['GET', `/api/cameras/${cam}/media/${run}/init.mp4`],
      ['PUT', `/api/cameras/${cam}/configs/`, { simulated: true }],
      [
        'POST',
        '/api/batch-playback-download/',
        { cameraIds: [cam], windows: [{ from: hour, to: new Date(Date.now() - 3000_000).toISOString() }] },
      ],
      ['POST', '/api/incident-reports/', { title: 'x', awb: 'A1', tableNumber: 'T1', cameraId: cam, eventAt: hour }],
    ] as const) {
      const res = await outsider.request({ method, url, payload });
      expect([403, 404], `${method} ${url}`).toContain(res.statusCode);
    }
    expect((await outsider.get('/api/cameras/')).json().contents).toEqual([]);
    // A customer user sees only the sites assigned to them.
    const user = await t.login('customer');
    const visible = (await user.get('/api/cameras/')).json().contents.map((c: { id: number }) => c.id);
    expect(visible).not.toContain(cam);
    expect((await user.get(`/api/cameras/${cam}/snapshot/`)).statusCode).toBe(403);
    expect((await user.get(`/api/cameras/${cam}/playback.m3u8`)).statusCode).toBe(403);
  });

  it('refuses camera URLs that reach loopback, link-local or metadata addresses and never returns credentials', async () => {
    for (const url of ['rtsp://127.0.0.1:8554/live', 'rtsp://169.254.169.254/latest', 'rtsp://[::1]/x', 'rtsp://localhost/x']) {
      const res = await admin.put(`/api/cameras/${other}/configs/`, { streamUrl: url, recordingEnabled: false });
      expect(res.statusCode, url).toBe(400);
    }
    expect(
      (await admin.put(`/api/cameras/${other}/configs/`, { streamUrl: 'http://10.0.0.5/x', recordingEnabled: false })).statusCode,
    ).toBe(400);
    expect(
      (await admin.put(`/api/cameras/${other}/configs/`, { streamUrl: 'file:///etc/passwd', recordingEnabled: false })).statusCode,
    ).toBe(400);
    const ok = await admin.put(`/api/cameras/${other}/configs/`, {
      streamUrl: 'rtsp://viewer:s3cret@10.0.0.5:554/stream1',
      recordingEnabled: false,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).not.toContain('s3cret');
    expect(ok.json().streamUrl).toBe('rtsp://***@10.0.0.5:554/stream1');
    expect((await admin.get('/api/cameras/')).body).not.toContain('s3cret');
    // Sending the redacted URL back keeps the stored credentials.
    await admin.put(`/api/cameras/${other}/configs/`, { streamUrl: ok.json().streamUrl, recordingEnabled: false });
    const stored = await t.db.selectFrom('video_cameras').select('stream_url').where('device_id', '=', other).executeTakeFirstOrThrow();
    expect(stored.stream_url).toContain('s3cret');
    // Only admins configure cameras.
    const user = await t.login('customer');
    expect([403, 404]).toContain((await user.put(`/api/cameras/${other}/configs/`, { simulated: true })).statusCode);
  });

  it('lets only camera configurators change tours, and names only the cameras a caller may open', async () => {
    const tour = (
      await admin.post('/api/camera-tours/', { name: 'Gate round', layout: 1, stops: [{ cameraId: cam, dwellSec: 10 }] })
    ).json();
    for (const role of ['customer', 'vendor', 'fieldexecutive']) {
      const user = await t.login(role);
      expect((await user.delete(`/api/camera-tours/${tour.id}/`)).statusCode, role).toBe(403);
      const edit = { name: 'Renamed', layout: 1, stops: [{ cameraId: cam, dwellSec: 5 }] };
      expect((await user.put(`/api/camera-tours/${tour.id}/`, edit)).statusCode, role).toBe(403);
      expect((await user.post('/api/camera-tours/', edit)).statusCode, role).toBe(403);
      // the customer user is assigned no site: the tour is listed, but its camera is not named
      if (role === 'customer') {
        const listed = (await user.get('/api/camera-tours/')).json().contents.find((x: { id: number }) => x.id === tour.id);
        expect(listed.stops[0]).toMatchObject({ cameraId: cam, label: null });
        expect((await user.get(`/api/camera-tours/${tour.id}/`)).body).not.toContain('Gate Cam');
      }
    }
    expect((await admin.get(`/api/camera-tours/${tour.id}/`)).json().stops[0].label).toBe('Gate Cam · Site Gate Cam');
    expect((await admin.delete(`/api/camera-tours/${tour.id}/`)).statusCode).toBe(200);
  });

  it('manages storages, tours and incident reports with their AWB and Table columns', async () => {
    const storage = await admin.post('/api/storages/', { name: 'Disk A', path: 'disk-a', retentionDays: 3, isDefault: true });
    expect(storage.statusCode).toBe(200);
    expect(storage.json()).toMatchObject({ name: 'Disk A', retentionDays: 3, isDefault: true, usedBytes: 0 });
    expect((await admin.post('/api/storages/', { name: 'Bad', path: '../etc' })).statusCode).toBe(400);
    expect((await admin.post('/api/storages/', { name: 'Disk A', path: 'disk-b' })).statusCode).toBe(409);
    const edited = await admin.put(`/api/storages/${storage.json().id}/`, { name: 'Disk A1', path: 'disk-a', retentionDays: 5 });
    expect(edited.json()).toMatchObject({ name: 'Disk A1', retentionDays: 5 });
    expect((await admin.get('/api/storages/')).json().totalCount).toBe(1);
    expect((await (await t.login('customeradmin', HOST_B)).get(`/api/storages/${storage.json().id}/`)).statusCode).toBe(404);

    const tour = await admin.post('/api/camera-tours/', { name: 'Night round', layout: 1, stops: [{ cameraId: cam, dwellSec: 10 }] });
    expect(tour.statusCode).toBe(200);
    expect(tour.json().stops[0]).toMatchObject({ cameraId: cam, dwellSec: 10, label: 'Gate Cam · Site Gate Cam' });
    expect((await admin.post('/api/camera-tours/', { name: 'x', stops: [] })).statusCode).toBe(400);
    expect((await admin.post('/api/camera-tours/', { name: 'x', stops: [{ cameraId: 999999, dwellSec: 10 }] })).statusCode).toBe(400);

    const missing = await admin.post('/api/incident-reports/', {
      title: 'Damaged parcel',
      cameraId: cam,
      eventAt: new Date().toISOString(),
    });
    expect(missing.statusCode).toBe(400);
    const rows = await segments(cam);
    const eventAt = new Date((rows[0] as (typeof rows)[number]).start_at).toISOString();
    const incident = await admin.post('/api/incident-reports/', {
      title: 'Damaged parcel',
      awb: 'AWB123',
      tableNumber: 'T4',
      cameraId: cam,
      eventAt,
      durationSec: 3,
    });
    expect(incident.statusCode).toBe(200);
    expect(
      (await admin.post('/api/incident-reports/', { title: 'x', awb: 'A', tableNumber: 'T', cameraId: cam, eventAt, durationSec: 61 }))
        .statusCode,
    ).toBe(400);
    await t.app.jobs.drain();
    const view = (await admin.get(`/api/incident-reports/${incident.json().id}/`)).json();
    expect(view).toMatchObject({ awb: 'AWB123', tableNumber: 'T4', clipStatus: 'ready' });
    const clip = await admin.get(view.clipPath);
    expect(clip.statusCode).toBe(200);
    expect(clip.headers['content-type']).toBe('video/mp4');
    expect((await admin.get('/api/incident-reports/?search=awb123')).json().totalCount).toBe(1);
  }, 30_000);

  it('deletes footage past its retention age and over the storage size', async () => {
    await recorder.flush();
    const all = await segments(cam);
    const old = all.slice(0, 2);
    await t.db
      .updateTable('video_segments')
      .set({ start_at: new Date(Date.now() - 9 * 86_400_000), end_at: new Date(Date.now() - 9 * 86_400_000 + 2000) })
      .where(
        'id',
        'in',
        old.map((s) => s.id),
      )
      .execute();
    const paths = createVideoPaths(dataDir);
    const files = old.map((s) => paths.mediaFile(s.storage_path, t.tenantA, cam, s.run, s.file));
    const result = await applyRetention(t.db, paths, loadVideoSettings());
    expect(result.removed).toBe(2);
    for (const f of files) await expect(stat(f)).rejects.toThrow();
    const remaining = await segments(cam);
    expect(remaining.some((s) => old.some((o) => o.id === s.id))).toBe(false);
    // by size: a storage limit below what is held removes the oldest until it fits
    await t.db.insertInto('video_storages').values({ tenant_id: t.tenantA, name: 'Tiny', path: 'tiny', max_bytes: 1 }).execute();
    await t.db
      .updateTable('video_segments')
      .set({ storage_path: 'tiny' })
      .where(
        'id',
        'in',
        remaining.slice(0, 2).map((s) => s.id),
      )
      .execute();
    await rm(join(dataDir, 'video', 'tiny'), { recursive: true, force: true });
    const sized = await applyRetention(t.db, paths, loadVideoSettings());
    expect(sized.removed).toBe(2);
    expect(await t.db.selectFrom('video_segments').select('id').where('storage_path', '=', 'tiny').execute()).toEqual([]);
  });

  it('streams fMP4 over an authenticated WebSocket: init segment, then keyframe-first fragments, one ffmpeg for all viewers', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const url = `ws://127.0.0.1:${port}/api/cameras/${cam}/live/ws`;
    const view = (await admin.get(`/api/cameras/${cam}/live-view/`)).json();
    expect(view.wsUrl).toBe(`/api/cameras/${cam}/live/ws`);

    /** Opens a viewer socket; resolves with its messages once `count` arrived (or rejects with the HTTP status). */
    const watch = (client: TestClient, host: string, count: number) =>
      new Promise<{ ws: WebSocket; messages: Buffer[] }>((resolve, reject) => {
        const ws = new WebSocket(url, { headers: { host, cookie: cookieOf(client) } });
        const messages: Buffer[] = [];
        ws.on('message', (raw: Buffer) => {
          messages.push(raw);
          if (messages.length === count) resolve({ ws, messages });
        });
        ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
        ws.once('close', (code) => reject(new Error(`closed ${code}`)));
        ws.once('error', reject);
        setTimeout(() => reject(new Error(`only ${messages.length} messages`)), 20_000);
      });
    const box = (m: Buffer) => m.toString('latin1', 12, 16);
    const first = await watch(admin, 'localhost', 6);
    const [init, ...fragments] = first.messages as [Buffer, ...Buffer[]];
    // 8-byte server timestamp, then the MP4: ftyp+moov, then moof+mdat fragments starting at a keyframe
    expect(Math.abs(init.readDoubleBE(0) - Date.now())).toBeLessThan(30_000);
    expect(box(init)).toBe('ftyp');
    expect(init.includes(Buffer.from('moov'))).toBe(true);
    for (const f of fragments) expect(box(f)).toBe('moof');
    expect(moofStartsWithKeyframe(fragments[0]?.subarray(8, 8 + fragments[0].readUInt32BE(8)) as Buffer)).toBe(true);
    // ~100 ms fragments: five arrive well within a second of each other
    const spread = (fragments.at(-1) as Buffer).readDoubleBE(0) - fragments[0]!.readDoubleBE(0);
    expect(spread).toBeLessThan(1500);

    // A second viewer shares the same ffmpeg and starts with the init segment and a keyframe.
    const second = await watch(admin, 'localhost', 2);
    expect(box(second.messages[0] as Buffer)).toBe('ftyp');
    expect(box(second.messages[1] as Buffer)).toBe('moof');
    const relay = t.handles.video.relay;
    expect(relay?.stats()).toEqual([expect.objectContaining({ key: `${t.tenantA}:${cam}`, viewers: 2 })]);
    first.ws.close();
    second.ws.close();

    // Another tenant's session is refused before the upgrade: on our host (401) and on its own host (404).
    const outsider = await t.login('customeradmin', HOST_B);
    await expect(watch(outsider, 'localhost', 1)).rejects.toThrow('HTTP 401');
    await expect(watch(outsider, HOST_B, 1)).rejects.toThrow('HTTP 404');
    // No session, and a page of another origin, are refused too.
    await expect(
      new Promise((resolve, reject) => {
        const ws = new WebSocket(url, { headers: { host: 'localhost' } });
        ws.once('open', resolve);
        ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      }),
    ).rejects.toThrow('HTTP 401');
    await expect(
      new Promise((resolve, reject) => {
        const ws = new WebSocket(url, { headers: { host: 'localhost', cookie: cookieOf(admin), origin: 'https://evil.example' } });
        ws.once('open', resolve);
        ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      }),
    ).rejects.toThrow('HTTP 403');
    // The relay stops a few seconds after its last viewer left.
    const end = Date.now() + 10_000;
    while ((relay?.stats().length ?? 0) > 0 && Date.now() < end) await sleep(250);
    expect(relay?.stats()).toEqual([]);
  }, 40_000);

  it('lists the cameras of the device-tree selection: an address prefix, a site, a DVR or a camera', async () => {
    const ids = async (query: string) => (await admin.get(`/api/cameras/?${query}`)).json().contents.map((c: { id: number }) => c.id);
    expect(await ids('path=India&path=Pune')).toContain(cam);
    expect(await ids('path=Nowhere')).toEqual([]);
    expect(await ids(`deviceId=${cam}`)).toEqual([cam]);
    const dvr = (await admin.get(`/api/cameras/${cam}/`)).json().parentId as number;
    expect(await ids(`deviceId=${dvr}`)).toEqual([cam]);
    expect((await admin.get('/api/cameras/?path=a&path=b&path=c&path=d&path=e&path=f&path=g')).statusCode).toBe(400);
  });

  it('requires the view_camera permission on camera endpoints, besides the site visibility', async () => {
    const group = await t.db
      .insertInto('groups')
      .values({
        tenant_id: t.tenantA,
        name: 'No cameras',
        permissions: JSON.stringify([{ codename: 'view_device', name: 'Can view device' }]),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sysadmin = await t.db
      .selectFrom('users')
      .select(['id', 'group_ids'])
      .where('tenant_id', '=', t.tenantA)
      .where('username', '=', 'sysadmin')
      .executeTakeFirstOrThrow();
    const allowed = await t.login('sysadmin');
    expect((await allowed.get(`/api/cameras/${cam}/`)).statusCode).toBe(200);
    await t.db
      .updateTable('users')
      .set({ group_ids: [group.id] })
      .where('id', '=', sysadmin.id)
      .execute();
    try {
      const denied = await t.login('sysadmin');
      const now = new Date().toISOString();
      const hour = new Date(Date.now() - 3600_000).toISOString();
      for (const url of [
        '/api/cameras/',
        `/api/cameras/${cam}/`,
        `/api/cameras/${cam}/live-view/`,
        `/api/cameras/${cam}/live.m3u8`,
        `/api/cameras/${cam}/snapshot/`,
        `/api/cameras/${cam}/playback.m3u8?from=${hour}&to=${now}`,
        `/api/cameras/${cam}/timeline/?from=${hour}&to=${now}`,
        '/api/camera-tours/',
        '/api/incident-reports/',
      ]) {
        expect((await denied.get(url)).statusCode, url).toBe(403);
      }
    } finally {
      await t.db.updateTable('users').set({ group_ids: sysadmin.group_ids }).where('id', '=', sysadmin.id).execute();
    }
  });

  it('finishes a batch download after the server restarts mid-job', async () => {
    const rows = await waitFor('two fresh segments', async () => {
      const r = await segments(cam);
      return r.length >= 2 && r;
    });
    const from = new Date((rows.at(-2) as (typeof rows)[number]).start_at);
    const created = (
      await admin.post('/api/batch-playback-download/', {
        cameraIds: [cam],
        windows: [{ from: from.toISOString(), to: new Date(from.getTime() + 3000).toISOString() }],
      })
    ).json();
    // A worker took the job and the process died: running, its lease in the past.
    const job = await t.db.selectFrom('video_clip_jobs').select('queue_job_id').where('id', '=', created.jobId).executeTakeFirstOrThrow();
    await t.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'dead', locked_until: new Date(Date.now() - 1000), attempts: 1 })
      .where('id', '=', job.queue_job_id as number)
      .execute();
    await t.app.close();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO: 'false', DATA_DIR: dataDir, WEB_DIST: '/nonexistent' });
    const { app: restarted } = await buildApp({ config, database: t.database, logger: false });
    await restarted.ready();
    try {
      await restarted.jobs.drain();
      const clipJob = await t.db.selectFrom('video_clip_jobs').selectAll().where('id', '=', created.jobId).executeTakeFirstOrThrow();
      expect(clipJob.status).toBe('ready-to-download');
      const dir = await readdir(join(dataDir, 'video-exports', String(t.tenantA), String(created.jobId)));
      expect(dir.filter((f) => f.endsWith('.mp4'))).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  }, 30_000);
});
