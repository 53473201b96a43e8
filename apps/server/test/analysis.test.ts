import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseFootage, analyseRegionMotion, extractFrame, parseScene, passGraph } from '../src/modules/analysis/analysers.ts';
import { createTestResult } from '../src/modules/analysis/fixtures.ts';
import { createAnalysisService } from '../src/modules/analysis/service.ts';
import { createUserDirectory } from '../src/modules/users/directory.ts';
import { createTestCamera } from '../src/modules/video/fixtures.ts';
import { createEventBus } from '../src/platform/events.ts';
import { runFfmpeg } from '../src/platform/ffmpeg/index.ts';
import { createTestApp, HOST_B, type TestApp } from './support/harness.ts';

let t: TestApp;
let dir: string;
let clip: string;
/** 4 s of the same moving pattern as the clip's first seconds, turned upside down: the camera has been moved. */
let turned: string;

/**
 * 14 s at 10 fps, a keyframe each second: moving test pattern (0–3 s), black (3–5 s), a frozen picture (5–8 s),
 * the pattern blurred (8–11 s), then colour bars (11–14 s: another scene, and still).
 */
async function makeClip(path: string) {
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=10:d=3'],
    ...['-f', 'lavfi', '-i', 'color=c=black:s=320x240:r=10:d=2'],
    ...['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=10:d=1'],
    ...['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=10:d=3'],
    ...['-f', 'lavfi', '-i', 'smptebars=s=320x240:r=10:d=3'],
    '-filter_complex',
    '[2:v]trim=end_frame=1,loop=loop=30:size=1:start=0,setpts=N/10/TB[frz];[3:v]boxblur=12:3[blr];[0:v][1:v][frz][blr][4:v]concat=n=5:v=1:a=0,format=yuv420p[out]',
    ...['-map', '[out]', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0', '-y', path],
  ]);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sw-analysis-'));
  clip = join(dir, 'faults.mp4');
  await makeClip(clip);
  turned = join(dir, 'turned.mp4');
  await runFfmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=10:d=4', '-vf', 'hflip,vflip,format=yuv420p'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0', '-y', turned],
  ]);
  t = await createTestApp({ DATA_DIR: dir });
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const near = (value: number | undefined, expected: number, within = 1.1) => Math.abs((value ?? Number.NaN) - expected) <= within;

describe('analysers on real video', () => {
  it('finds the black, frozen and blurred stretches at the right times', async () => {
    const { findings } = await analyseFootage(clip, 14);
    const of = (kind: string) => findings.filter((f) => f.analyser === kind);
    expect(of('black')).toHaveLength(1);
    expect(near(of('black')[0]?.offset, 3)).toBe(true);
    expect(near(of('black')[0]?.duration, 2)).toBe(true);
    const frozen = of('frozen').find((f) => near(f.offset, 5));
    expect(frozen, JSON.stringify(findings)).toBeDefined();
    expect(near(frozen?.duration, 3)).toBe(true);
    // the freeze inside the black stretch is not told twice
    expect(of('frozen').some((f) => near(f.offset, 3, 0.6))).toBe(false);
    const blur = of('blur')[0];
    expect(blur, JSON.stringify(findings)).toBeDefined();
    expect(blur?.offset).toBeGreaterThanOrEqual(8);
    expect(blur?.offset).toBeLessThan(10);
    expect(blur?.score).toBeGreaterThan(0.6);
  });

  it('tells a moved scene from the same scene against the reference frame, in the same pass as the detectors', async () => {
    const reference = join(dir, 'ref.jpg');
    await extractFrame(clip, 1, reference);
    const scene = (offset: number) => ({ reference, offset, file: join(dir, 'scene.txt') });
    const same = await analyseFootage(clip, 14, { scene: scene(2) });
    expect(same.scene?.offset).toBe(2);
    expect(same.scene?.similarity).toBeGreaterThan(0.5);
    const moved = await analyseFootage(clip, 14, { scene: scene(12.5) });
    expect(moved.scene?.offset).toBe(13);
    expect(moved.scene?.similarity).toBeLessThan(0.5);
    // the comparison changes nothing of what the detectors find, nor of the region's motion in the same decode
    const alone = await analyseFootage(clip, 14);
    expect(moved.findings).toEqual(alone.findings);
    const region = { x: 0.5, y: 0.5, w: 0.5, h: 0.5 };
    const all = await analyseFootage(clip, 14, { scene: scene(2), motion: { region, thresholdPercent: 1, file: join(dir, 'motion.txt') } });
    expect(all.findings).toEqual(alone.findings);
    expect(all.scene).toEqual(same.scene);
    expect(all.motion).toEqual(await analyseRegionMotion(clip, 14, region, 1));
    expect(all.motion.length).toBeGreaterThan(0);
  }, 30_000);
});

describe('the scene comparison as ffmpeg prints it', () => {
  it('keeps the last keyframe compared (the nearest the probe offset) and ignores anything else', () => {
    const printed = [
      'frame:0    pts:0       pts_time:0',
      'lavfi.ssim.All=0.912345',
      'frame:1    pts:12800   pts_time:1',
      'lavfi.ssim.All=0.301000',
      'lavfi.ssim.Y=0.2',
      'frame:2    pts:25600   pts_time:2.04',
      'lavfi.ssim.All=0.420000',
      '',
    ].join('\n');
    expect(parseScene(printed)).toEqual({ offset: 2.04, similarity: 0.42 });
    expect(parseScene('')).toBeNull();
    // a value before any frame line has no time to belong to
    expect(parseScene('lavfi.ssim.All=0.5\n')).toBeNull();
    expect(parseScene('frame:0 pts:0 pts_time:0\nlavfi.ssim.All=nan\n')).toBeNull();
  });

  it('escapes the side files in the filter graph and asks for keyframes up to half a second after the offset', () => {
    const graph = passGraph({
      scene: { reference: '/data/ref.jpg', offset: 5, file: "/data/a:b,c'd/scene.txt" },
      motion: { region: { x: 0, y: 0, w: 1, h: 1 }, thresholdPercent: 1, file: '/data/x;y/motion.txt' },
    });
    expect(graph).toContain("file=/data/a\\:b\\,c\\'d/scene.txt[s]");
    expect(graph).toContain('file=/data/x\\;y/motion.txt[m]');
    expect(graph).toContain('select=lte(t\\,5.50)');
    expect(passGraph({})).not.toContain('ssim');
  });
});

describe('a camera analysed end to end', () => {
  it('stores results with frames, raises the AI audit ticket, and a false positive resolves it', async () => {
    const { admin, camId } = await createTestCamera(t, 'Analysed Cam');
    const camera = (await admin.get(`/iotapp/devices/${camId}/`)).json();
    const from = new Date(Date.now() - 20_000);
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
        recordingCameras: async () => [
          { tenantId: t.tenantA, deviceId: camId, label: 'Analysed Cam', assetId: camera.assetId, lastSegmentAt: new Date() },
        ],
        since: async () => ({ input: clip, from, to: new Date(from.getTime() + 14_000) }),
        attachClips: async () => [],
      },
    });
    const pass = await analysis.sweep();
    expect(pass).toMatchObject({ cameras: 1, analysed: 1 });
    expect(pass.found).toBeGreaterThanOrEqual(3);
    // the same faults a minute later are the same faults: told once
    expect((await analysis.sweep()).found).toBe(0);

    const page = (await admin.get(`/api/analysis/results/?cameraId=${camId}&limit=50`)).json();
    const kinds = page.results.map((r: { analyser: string }) => r.analyser);
    expect(kinds).toEqual(expect.arrayContaining(['black', 'frozen', 'blur']));
    const blur = page.results.find((r: { analyser: string }) => r.analyser === 'blur');
    expect(blur.hasFrame).toBe(true);
    expect(new Date(blur.at).getTime() - from.getTime()).toBeGreaterThanOrEqual(8000);
    expect(blur.ticketNo).toMatch(/./);
    const image = await admin.get(`/api/analysis/results/${blur.id}/frame/`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');

    // the queue hands out the oldest unverified result, and a verdict is given once
    const queue = (await admin.get('/api/analysis/queue/')).json();
    expect(queue.waiting).toBeGreaterThanOrEqual(3);
    const verdict = await admin.put(`/api/analysis/results/${blur.id}/verdict/`, { verdict: 'FALSE_POSITIVE', reason: 'Weather' });
    expect(verdict.statusCode, verdict.body).toBe(200);
    expect(verdict.json()).toMatchObject({ verdict: 'FALSE_POSITIVE', reason: 'Weather' });
    expect(verdict.json().verifiedBy).toMatch(/./);
    expect((await admin.put(`/api/analysis/results/${blur.id}/verdict/`, { verdict: 'TRUE_POSITIVE' })).statusCode).toBe(409);
    const ticket = (await admin.get(`/helpdesk/tickets/${blur.ticketId}/`)).json();
    expect(ticket.status).toBe('RESOLVED');

    const summary = (await admin.get('/api/analysis/summary/')).json();
    const row = summary.rows.find((r: { cameraId: number; analyser: string }) => r.cameraId === camId && r.analyser === 'blur');
    expect(row).toMatchObject({ falsePositives: 1, falsePositiveRate: 1 });

    // a second pass over the same footage finds the same faults again only because the stub replays it: the
    // camera's reference was taken on the first pass
    const reference = await admin.get(`/api/analysis/cameras/${camId}/reference/`);
    expect([200, 404]).toContain(reference.statusCode);
    expect((await admin.delete(`/api/analysis/cameras/${camId}/reference/`)).json()).toEqual({ success: true });
    expect((await admin.get(`/api/analysis/cameras/${camId}/reference/`)).statusCode).toBe(404);
  }, 60_000);

  it('takes the reference frame on the first pass and finds the moved camera on a later one', async () => {
    const { admin, camId } = await createTestCamera(t, 'Turned Cam');
    const camera = (await admin.get(`/iotapp/devices/${camId}/`)).json();
    let footage = { input: clip, from: new Date(Date.now() - 60_000), to: new Date(Date.now() - 57_000) };
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
        recordingCameras: async () => [
          { tenantId: t.tenantA, deviceId: camId, label: 'Turned Cam', assetId: camera.assetId, lastSegmentAt: new Date() },
        ],
        since: async () => footage,
        attachClips: async () => [],
      },
    });
    // the clip's first 3 s: the moving pattern, no fault; it becomes the reference
    expect((await analysis.sweep()).found).toBe(0);
    expect((await admin.get(`/api/analysis/cameras/${camId}/reference/`)).statusCode).toBe(200);
    footage = { input: turned, from: new Date(Date.now() - 30_000), to: new Date(Date.now() - 26_000) };
    expect((await analysis.sweep()).found).toBe(1);
    const [scene] = (await admin.get(`/api/analysis/results/?cameraId=${camId}&limit=50`)).json().results;
    expect(scene).toMatchObject({ analyser: 'sceneChange', hasFrame: true });
    expect(scene.score).toBeGreaterThan(0.5);
    // the probe is the keyframe nearest the middle of the 4 s
    expect(new Date(scene.at).getTime() - footage.from.getTime()).toBe(2000);
    expect((await admin.get(`/api/analysis/results/${scene.id}/frame/`)).headers['content-type']).toBe('image/jpeg');
  }, 60_000);

  it('shows nothing of another tenant and refuses bad input clearly', async () => {
    const { admin, camId } = await createTestCamera(t, 'Private Cam');
    const row = { id: await createTestResult(t, camId) };
    const intruder = await t.login('customeradmin', HOST_B);
    expect((await intruder.get(`/api/analysis/results/${row?.id}/frame/`)).statusCode).toBe(404);
    expect((await intruder.put(`/api/analysis/results/${row?.id}/verdict/`, { verdict: 'TRUE_POSITIVE' })).statusCode).toBe(404);
    expect((await intruder.get('/api/analysis/results/')).json().results.some((r: { id: number }) => r.id === row?.id)).toBe(false);
    expect((await intruder.delete(`/api/analysis/cameras/${camId}/reference/`)).statusCode).toBe(404);
    const bad = await admin.put(`/api/analysis/results/${row?.id}/verdict/`, { verdict: 'MAYBE' });
    expect(bad.statusCode).toBe(400);
    expect((await admin.get('/api/analysis/results/?limit=1000')).statusCode).toBe(400);
    expect((await admin.get(`/api/analysis/results/${row?.id}/frame/`)).statusCode).toBe(404);
  });
});
