import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withinHours } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseRegionMotion } from '../src/modules/analysis/analysers.ts';
import { createAnalysisService } from '../src/modules/analysis/service.ts';
import { createUserDirectory } from '../src/modules/users/directory.ts';
import { createTestCamera } from '../src/modules/video/fixtures.ts';
import { applyRetention } from '../src/modules/video/jobs.ts';
import { createVideoPaths } from '../src/modules/video/paths.ts';
import { loadVideoSettings } from '../src/modules/video/settings.ts';
import { createEventBus } from '../src/platform/events.ts';
import { runFfmpeg } from '../src/platform/ffmpeg/index.ts';
import { put } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp } from './support/harness.ts';
import { devicePost, eventually, makeDevice } from './telemetry-fixtures.ts';

let t: TestApp;
let dir: string;
let motionClip: string;
const clock = createTestClock();

/**
 * 20 s of still colour bars at 10 fps with a keyframe each second: a red square moves across the bottom right
 * quarter from 6 s to 9 s, a blue one across the top left from 13 s to 16 s.
 */
async function makeMotionClip(path: string) {
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'smptebars=s=640x360:r=10:d=20'],
    ...['-f', 'lavfi', '-i', 'color=c=red:s=60x60:r=10:d=20'],
    ...['-f', 'lavfi', '-i', 'color=c=blue:s=60x60:r=10:d=20'],
    '-filter_complex',
    "[0:v][1:v]overlay=x='400+40*(t-6)':y=260:enable='between(t,6,9)'[a];[a][2:v]overlay=x='20+40*(t-13)':y=20:enable='between(t,13,16)',format=yuv420p[out]",
    ...['-map', '[out]', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0', '-y', path],
  ]);
}

/**
 * Recorded footage of a camera as the recorder leaves it: a run folder of 2 s fMP4 segments, indexed from `from`
 * (the segments' own times are what retention and the clip cutter read).
 */
async function recordFootage(camId: number, run: string, from: Date, seconds: number) {
  const runDir = join(dir, 'video', '_default', String(t.tenantA), String(camId), run);
  mkdirSync(runDir, { recursive: true });
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=s=160x90:r=5:d=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0'],
    ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4'],
    ...['-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(runDir, 'seg-%d.m4s'), join(runDir, 'index.m3u8')],
  ]);
  const files = readdirSync(runDir)
    .filter((f) => /^seg-\d+\.m4s$/.test(f))
    .sort((a, b) => Number(a.slice(4, -4)) - Number(b.slice(4, -4)));
  await t.db
    .insertInto('video_segments')
    .values(
      files.map((file, i) => ({
        tenant_id: t.tenantA,
        device_id: camId,
        storage_path: '_default',
        run,
        file,
        start_at: new Date(from.getTime() + i * 2000),
        end_at: new Date(from.getTime() + (i + 1) * 2000),
        bytes: statSync(join(runDir, file)).size,
      })),
    )
    .execute();
  return files.length;
}

const segmentsOf = (camId: number) =>
  t.db.selectFrom('video_segments').select(['start_at', 'end_at']).where('device_id', '=', camId).orderBy('start_at').execute();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sw-ticket-evidence-'));
  motionClip = join(dir, 'motion.mp4');
  await makeMotionClip(motionClip);
  t = await createTestApp(
    { DATA_DIR: dir, TELEMETRY_TOKEN_CACHE_SECONDS: '0', TELEMETRY_FLUSH_MS: '5', TELEMETRY_LATEST_FLUSH_MS: '0' },
    { clock },
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('motion in a region during set hours', () => {
  it('finds the motion inside the region at the right time, and none outside it', async () => {
    const bottomRight = await analyseRegionMotion(motionClip, 20, { x: 0.5, y: 0.5, w: 0.5, h: 0.5 }, 1);
    expect(bottomRight, JSON.stringify(bottomRight)).toHaveLength(1);
    expect(bottomRight[0]?.offset).toBeGreaterThanOrEqual(6);
    expect(bottomRight[0]?.offset).toBeLessThanOrEqual(7);
    expect((bottomRight[0]?.offset ?? 0) + (bottomRight[0]?.duration ?? 0)).toBeLessThanOrEqual(11);
    const topLeft = await analyseRegionMotion(motionClip, 20, { x: 0, y: 0, w: 0.4, h: 0.4 }, 1);
    expect(topLeft).toHaveLength(1);
    expect(topLeft[0]?.offset).toBeGreaterThanOrEqual(13);
    expect(topLeft[0]?.offset).toBeLessThanOrEqual(14);
    // a still corner (top right) has no motion at all
    expect(await analyseRegionMotion(motionClip, 20, { x: 0.75, y: 0, w: 0.25, h: 0.3 }, 1)).toEqual([]);
  });

  it('tells hours apart, over midnight too', () => {
    expect(withinHours(22 * 60, '20:00', '06:00')).toBe(true);
    expect(withinHours(5 * 60 + 59, '20:00', '06:00')).toBe(true);
    expect(withinHours(12 * 60, '20:00', '06:00')).toBe(false);
    expect(withinHours(9 * 60, '08:00', '18:00')).toBe(true);
    expect(withinHours(18 * 60, '08:00', '18:00')).toBe(false);
  });

  it('the sweep stores the finding with its frame only inside the camera region and hours', async () => {
    const admin = await t.login('customeradmin');
    const inHours = await createTestCamera(t, 'Yard Cam');
    const offHours = await createTestCamera(t, 'Gate Cam');
    const from = new Date(Date.now() - 30_000);
    const hh = (d: Date) => d.toISOString().slice(11, 16);
    const settings = (hours: { motionFrom: string; motionTo: string }) => ({
      region: { x: 0.5, y: 0.5, w: 0.5, h: 0.5 },
      ...hours,
      timeZone: 'UTC',
      threshold: 0.5,
    });
    // the hours around the footage for one camera; hours that end before it for the other
    const around = { motionFrom: hh(new Date(from.getTime() - 3600_000)), motionTo: hh(new Date(from.getTime() + 3600_000)) };
    const before = { motionFrom: hh(new Date(from.getTime() - 3 * 3600_000)), motionTo: hh(new Date(from.getTime() - 2 * 3600_000)) };
    const saved = await admin.put(`/api/analysis/cameras/${inHours.camId}/settings/`, settings(around));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ region: { x: 0.5, y: 0.5, w: 0.5, h: 0.5 }, timeZone: 'UTC' });
    expect((await admin.put(`/api/analysis/cameras/${offHours.camId}/settings/`, settings(before))).statusCode).toBe(200);
    expect((await admin.get(`/api/analysis/cameras/${inHours.camId}/settings/`)).json().motionFrom).toBe(around.motionFrom);
    // validation and access
    const bad = await admin.put(`/api/analysis/cameras/${inHours.camId}/settings/`, { ...settings(around), motionFrom: '25:00' });
    expect(bad.statusCode).toBe(400);
    const outside = await admin.put(`/api/analysis/cameras/${inHours.camId}/settings/`, {
      ...settings(around),
      region: { x: 0.8, y: 0, w: 0.5, h: 0.5 },
    });
    expect(outside.statusCode).toBe(400);
    const intruder = await t.login('customeradmin', HOST_B);
    expect((await intruder.get(`/api/analysis/cameras/${inHours.camId}/settings/`)).statusCode).toBe(404);
    expect((await intruder.put(`/api/analysis/cameras/${inHours.camId}/settings/`, settings(around))).statusCode).toBe(404);

    const clips: unknown[] = [];
    const camerasOf = async (camId: number, label: string) => {
      const device = (await admin.get(`/iotapp/devices/${camId}/`)).json();
      return { tenantId: t.tenantA, deviceId: camId, label, assetId: device.assetId, lastSegmentAt: new Date() };
    };
    const cameras = [await camerasOf(inHours.camId, 'Yard Cam'), await camerasOf(offHours.camId, 'Gate Cam')];
    const analysis = createAnalysisService({
      db: t.db,
      log: t.app.log,
      clock: { now: () => new Date() },
      dataDir: dir,
      events: createEventBus(),
      directory: t.handles.sites.directory,
      tickets: t.handles.helpdesk.tickets,
      users: createUserDirectory(t.db),
      footage: {
        recordingCameras: async () => cameras,
        since: async () => ({ input: motionClip, from, to: new Date(from.getTime() + 20_000) }),
        attachClips: async (req) => {
          clips.push(req);
          return [1];
        },
      },
    });
    await analysis.sweep();
    const motionOf = async (camId: number) =>
      (await admin.get(`/api/analysis/results/?cameraId=${camId}&analyser=regionMotion`)).json().results as Array<{
        at: string;
        hasFrame: boolean;
        ticketId: number | null;
      }>;
    const found = await motionOf(inHours.camId);
    expect(found).toHaveLength(1);
    const offset = (Date.parse(found[0]?.at as string) - from.getTime()) / 1000;
    expect(offset).toBeGreaterThanOrEqual(6);
    expect(offset).toBeLessThanOrEqual(7);
    expect(found[0]?.hasFrame).toBe(true);
    expect(await motionOf(offHours.camId)).toEqual([]);
    // above the ticket score: the AI audit ticket is raised with a clip around the finding
    const ticketId = found[0]?.ticketId as number;
    expect(ticketId).toBeGreaterThan(0);
    expect(clips).toContainEqual(expect.objectContaining({ ticketId, cameraIds: [inHours.camId], source: 'analysis', windowSeconds: 15 }));
    const byTicket = (await admin.get(`/api/analysis/results/?ticketId=${ticketId}`)).json();
    expect(byTicket.results.map((r: { analyser: string }) => r.analyser)).toContain('regionMotion');
    const ticket = (await admin.get(`/helpdesk/tickets/${ticketId}/`)).json();
    expect(ticket.type).toBe('AIAlarmTicket');
  });
});

describe('alarm evidence on tickets', () => {
  it('puts the mapped camera clip over 300 s either side on the alarm ticket, pinned until the ticket is resolved', async () => {
    const { admin, camId } = await createTestCamera(t, 'Dock Cam');
    const other = await createTestCamera(t, 'Unmapped Cam');
    const assetId = (await admin.get(`/iotapp/devices/${camId}/`)).json().assetId as number;
    const ups = await makeDevice(t.db, t.tenantA, { type: 'UPS', label: 'Dock UPS', assetId });
    const mapping = await admin.post('/iotapp/entity-mappings/', {
      relationType: 'CAMERA MAPPING',
      fromType: 'DEVICE',
      fromEntity: ups.id,
      toType: 'DEVICE',
      toEntity: camId,
    });
    expect(mapping.statusCode, mapping.body).toBeLessThan(300);
    // one click from the alarm: the cameras to open for the device
    const cameras = await admin.get(`/api/video-evidence/cameras/?deviceId=${ups.id}`);
    expect(cameras.json()).toEqual({ contents: [{ id: camId, label: 'Dock Cam' }] });
    expect((await (await t.login('customeradmin', HOST_B)).get(`/api/video-evidence/cameras/?deviceId=${ups.id}`)).statusCode).toBe(404);
    const rule = await admin.post('/api/alarms/rules/', {
      name: 'UPS on battery',
      kind: 'threshold',
      deviceType: 'UPS',
      key: 'battery',
      operator: '<',
      threshold: 20,
      severity: 'MAJOR',
      createTicket: true,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    t.handles.alarms.alarms.invalidateRules();

    // footage around the alarm: 330 s before to 330 s after, and an old run nobody needs
    const now = clock.now();
    await recordFootage(camId, 'aaaaaa01', new Date(now.getTime() - 330_000), 660);
    await recordFootage(other.camId, 'bbbbbb01', new Date(now.getTime() - 330_000), 20);

    const res = await devicePost(t, `/api/v1/${ups.token}/telemetry`, { battery: 12 });
    expect(res.statusCode).toBe(200);
    await t.handles.alarms.alarms.settled();
    const alarmAt = clock.now();
    const alarm = await eventually(async () => (await admin.get(`/api/alarms/?deviceId=${ups.id}`)).json().contents[0]);
    const ticketId = (await t.db.selectFrom('alarms').select('ticket_id').where('id', '=', alarm.id).executeTakeFirstOrThrow())
      .ticket_id as number;
    expect(ticketId).toBeGreaterThan(0);

    const listed = await eventually(async () => {
      const list = (await admin.get(`/api/video-evidence/?ticketId=${ticketId}`)).json().contents;
      return list.length ? list : null;
    });
    expect(listed).toHaveLength(1);
    const clip = listed[0];
    expect(clip).toMatchObject({ cameraId: camId, source: 'alarm', status: 'pending', pinned: true, clipPath: null });
    expect(Date.parse(clip.to) - Date.parse(clip.from)).toBe(600_000);
    expect(Math.abs(Date.parse(clip.eventAt) - alarmAt.getTime())).toBeLessThan(5000);

    // not before the window's end: the job waits for alarm time + 300 s
    await t.app.jobs.drain();
    expect((await admin.get(`/api/video-evidence/?ticketId=${ticketId}`)).json().contents[0].status).toBe('pending');
    clock.advance(311_000);
    await t.app.jobs.drain();
    const ready = (await admin.get(`/api/video-evidence/?ticketId=${ticketId}`)).json().contents[0];
    expect(ready.status).toBe('ready');
    expect(ready.clipPath).toBe(`/api/video-evidence/${ready.id}/clip/`);
    const mp4 = await admin.get(ready.clipPath);
    expect(mp4.statusCode).toBe(200);
    expect(mp4.headers['content-type']).toBe('video/mp4');
    const file = join(dir, 'check.mp4');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, mp4.rawPayload);
    const { stdout } = await runFfmpeg(['-v', 'error', '-i', file, '-f', 'null', '-'], { stderrLimit: 2000 }).catch(() => ({
      stdout: '',
    }));
    expect(stdout).toBe('');
    const probe = await import('node:child_process').then(({ execFileSync }) =>
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString(),
    );
    expect(Math.abs(Number(probe) - 600)).toBeLessThan(4);

    // another tenant neither sees nor opens it
    const intruder = await t.login('customeradmin', HOST_B);
    expect((await intruder.get(`/api/video-evidence/?ticketId=${ticketId}`)).json().contents).toEqual([]);
    expect((await intruder.get(ready.clipPath)).statusCode).toBe(404);

    // retention far past the footage's age keeps what the open ticket pins, and only that
    const paths = createVideoPaths(dir);
    const settings = loadVideoSettings();
    const later = new Date(now.getTime() + 30 * 86_400_000);
    await applyRetention(t.db, paths, settings, undefined, later);
    const kept = await segmentsOf(camId);
    expect(kept.length).toBeGreaterThanOrEqual(299);
    expect(kept.length).toBeLessThanOrEqual(302);
    expect(new Date(kept[0]?.end_at as Date).getTime()).toBeGreaterThan(Date.parse(clip.from));
    expect(new Date(kept.at(-1)?.start_at as Date).getTime()).toBeLessThan(Date.parse(clip.to));
    expect(await segmentsOf(other.camId)).toEqual([]);

    // resolved: the footage goes back to normal retention
    const resolved = await put(admin, ticketId, { status: 'RESOLVED' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    await eventually(async () => !(await admin.get(`/api/video-evidence/?ticketId=${ticketId}`)).json().contents[0].pinned);
    await applyRetention(t.db, paths, settings, undefined, later);
    expect(await segmentsOf(camId)).toEqual([]);
  }, 120_000);
});

describe('camera health in the site summary', () => {
  it('counts a camera whose video the analysis finds lost, and stops counting it when footage is back', async () => {
    const { admin, camId } = await createTestCamera(t, 'Lost Cam');
    const device = (await admin.get(`/iotapp/devices/${camId}/`)).json();
    const site = (await admin.get(`/iotapp/assets/${device.assetId}/`)).json();
    const summaryRow = async () =>
      (
        (await admin.get(`/iotapp/assets/detailed-summary/?searchText=${encodeURIComponent(site.name)}`)).json().contents as Array<{
          id: number;
          cameraCount: number;
          cameraVideoLoss: number;
        }>
      ).find((r) => r.id === device.assetId);
    expect(await summaryRow()).toMatchObject({ cameraCount: 1, cameraVideoLoss: 0 });

    const events = createEventBus();
    const told: unknown[] = [];
    events.subscribe((e) => told.push(e));
    let lastSegmentAt = new Date(Date.now() - 600_000);
    const analysis = createAnalysisService({
      db: t.db,
      log: t.app.log,
      clock: { now: () => new Date() },
      dataDir: dir,
      events,
      directory: t.handles.sites.directory,
      tickets: t.handles.helpdesk.tickets,
      users: createUserDirectory(t.db),
      footage: {
        recordingCameras: async () => [{ tenantId: t.tenantA, deviceId: camId, label: 'Lost Cam', assetId: device.assetId, lastSegmentAt }],
        since: async () => null,
        attachClips: async () => [],
      },
    });
    await analysis.sweep();
    expect(await summaryRow()).toMatchObject({ cameraCount: 1, cameraVideoLoss: 1 });
    expect(told).toContainEqual(
      expect.objectContaining({ type: 'device.health', payload: { deviceId: camId, assetId: device.assetId, videoLost: true } }),
    );
    lastSegmentAt = new Date();
    await analysis.sweep();
    expect(await summaryRow()).toMatchObject({ cameraVideoLoss: 0 });
    expect(told).toContainEqual(expect.objectContaining({ type: 'device.health', payload: expect.objectContaining({ videoLost: false }) }));
  });
});

describe('footage stretches on the timeline', () => {
  it('starts a new stretch with each run, however close its first segment is to the run before', async () => {
    const { admin, camId } = await createTestCamera(t, 'Restarted Cam');
    const at = (s: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, s, 0));
    const row = (run: string, file: string, from: number, to: number) => ({
      tenant_id: t.tenantA,
      device_id: camId,
      storage_path: '_default',
      run,
      file,
      start_at: at(from),
      end_at: at(to),
      bytes: 1000,
    });
    // One run with a 1 s hole (still one stretch), then a restart whose clock starts where the last run ended.
    await t.db
      .insertInto('video_segments')
      .values([row('r1', 'seg-0.m4s', 0, 2), row('r1', 'seg-1.m4s', 3, 5), row('r2', 'seg-0.m4s', 5, 7), row('r2', 'seg-1.m4s', 7, 9)])
      .execute();
    const timeline = (await admin.get(`/api/cameras/${camId}/timeline/?from=${at(0).toISOString()}&to=${at(20).toISOString()}`)).json();
    expect(timeline.ranges).toEqual([
      { start: at(0).toISOString(), end: at(5).toISOString() },
      { start: at(5).toISOString(), end: at(9).toISOString() },
    ]);
  });
});

describe('hostile input on the evidence and region routes', () => {
  it('answers 4xx, never 5xx', async () => {
    const admin = await t.login('customeradmin');
    const { camId } = await createTestCamera(t, 'Fuzz Cam');
    const huge = '9'.repeat(30);
    const gets = [
      '/api/video-evidence/',
      '/api/video-evidence/?ticketId=0',
      `/api/video-evidence/?ticketId=${huge}`,
      '/api/video-evidence/?ticketId=abc',
      '/api/video-evidence/?ticketId=-1',
      '/api/video-evidence/cameras/?deviceId=2147483648',
      '/api/video-evidence/cameras/?deviceId=1e3',
      `/api/video-evidence/${huge}/clip/`,
      '/api/video-evidence/0/clip/',
      '/api/video-evidence/999999/clip/',
      `/api/analysis/cameras/${camId}/settings/?x=1`,
      '/api/analysis/cameras/2147483648/settings/',
      '/api/analysis/results/?ticketId=2147483648',
    ];
    for (const url of gets) {
      const res = await admin.get(url);
      expect(res.statusCode, `${url} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    const base = { region: { x: 0.1, y: 0.1, w: 0.5, h: 0.5 }, motionFrom: '20:00', motionTo: '06:00', timeZone: 'UTC', threshold: 1 };
    const bodies: unknown[] = [
      {},
      null,
      'x',
      { ...base, region: { x: -1, y: 0, w: 0.5, h: 0.5 } },
      { ...base, region: { x: 0, y: 0, w: 1e308, h: 0.5 } },
      { ...base, region: [1, 2, 3] },
      { ...base, motionFrom: '24:00' },
      { ...base, motionTo: '7:00' },
      { ...base, timeZone: 'Mars/Olympus' },
      { ...base, timeZone: 'x'.repeat(65) },
      { ...base, threshold: 0 },
      { ...base, threshold: 1e9 },
      { ...base, threshold: '1' },
    ];
    for (const body of bodies) {
      const res = await admin.put(`/api/analysis/cameras/${camId}/settings/`, body as object);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBeLessThan(500);
    }
    // a customer without a video administrator role may read the settings of a camera it sees, never change them
    const customer = await t.login('customer');
    expect((await customer.put(`/api/analysis/cameras/${camId}/settings/`, base)).statusCode).toBeGreaterThanOrEqual(403);
  });
});
