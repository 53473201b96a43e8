import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvidencePacks } from '../src/modules/video/evidence.ts';
import { createTestCamera } from '../src/modules/video/fixtures.ts';
import { runFfmpeg } from '../src/platform/ffmpeg/index.ts';
import { createTestApp, HOST_B, type TestApp } from './support/harness.ts';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sw-evidence-'));
  t = await createTestApp({ DATA_DIR: dir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (buffer: Buffer) => createHash('sha256').update(buffer).digest('hex');

/** An incident of tenant A whose clip is ready (the clip job's output, made here with ffmpeg). */
async function incidentWithClip() {
  const { admin, camId } = await createTestCamera(t, `Evidence Cam ${Date.now()}`);
  const incident = (
    await admin.post('/api/incident-reports/', {
      title: 'Parcel damaged',
      description: 'Box crushed at the belt',
      awb: 'AWB-778812',
      tableNumber: 'T-4',
      cameraId: camId,
      eventAt: new Date(Date.now() - 600_000).toISOString(),
    })
  ).json();
  const clip = join(dir, 'video-exports', String(t.tenantA), 'incidents', `${incident.id}.mp4`);
  mkdirSync(dirname(clip), { recursive: true });
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=320x240:r=10:d=3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-y',
    clip,
  ]);
  await t.db.updateTable('video_incidents').set({ clip_status: 'ready' }).where('id', '=', incident.id).execute();
  return { admin, id: incident.id as number, clip };
}

describe('incident evidence pack', () => {
  it('builds a PDF summary and the MP4 with their SHA-256, shared by a link anyone can open until it expires', async () => {
    const { admin, id, clip } = await incidentWithClip();
    const res = await admin.post(`/api/incident-reports/${id}/pack/`, { days: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const pack = res.json();
    expect(pack.url).toMatch(/^\/evidence\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(Date.parse(pack.expiresAt) - Date.now()).toBeGreaterThan(47 * 3600_000);
    const mp4 = pack.files.find((f: { name: string }) => f.name === 'clip.mp4');
    expect(mp4.sha256).toBe(sha256(readFileSync(clip)));

    const token = pack.url.split('/').pop() as string;
    const visitor = t.anonymous();
    const page = await visitor.get(`/api/evidence/${token}/`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ awb: 'AWB-778812', tableNumber: 'T-4', title: 'Parcel damaged' });
    const pdf = await visitor.get(`/api/evidence/${token}/summary.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const summary = page.json().files.find((f: { name: string }) => f.name === 'summary.pdf');
    expect(sha256(pdf.rawPayload)).toBe(summary.sha256);
    const video = await visitor.get(`/api/evidence/${token}/clip.mp4`);
    expect(sha256(video.rawPayload)).toBe(mp4.sha256);

    // altered, other tenant, expired: the same refusal, never the pack
    const [payload, signature] = token.split('.');
    const altered = `${Buffer.from(JSON.stringify({ t: t.tenantA, i: id + 1, e: 4102444800 })).toString('base64url')}.${signature}`;
    for (const bad of [altered, `${payload}.${'A'.repeat(signature?.length ?? 43)}`]) {
      const refused = await visitor.get(`/api/evidence/${bad}/`);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().detail).toBe('This evidence link is not valid or has expired');
    }
    expect((await t.anonymous(HOST_B).get(`/api/evidence/${token}/`)).statusCode).toBe(404);
    expect((await visitor.get('/api/evidence/not-a-token/')).statusCode).toBe(400);
    const packs = createEvidencePacks(new Uint8Array(48));
    expect(packs.verify(token, t.tenantA)).toBeNull(); // another install's secret
  }, 60_000);

  it('refuses a pack before the clip is ready, and another tenant the incident', async () => {
    const { admin, camId } = await createTestCamera(t, `Early Cam ${Date.now()}`);
    const incident = (
      await admin.post('/api/incident-reports/', {
        title: 'Early',
        description: '',
        awb: 'A1',
        tableNumber: 'T1',
        cameraId: camId,
        eventAt: new Date(Date.now() - 600_000).toISOString(),
      })
    ).json();
    expect((await admin.post(`/api/incident-reports/${incident.id}/pack/`, {})).statusCode).toBe(409);
    const intruder = await t.login('customeradmin', HOST_B);
    expect([403, 404]).toContain((await intruder.post(`/api/incident-reports/${incident.id}/pack/`, {})).statusCode);
    expect((await admin.post(`/api/incident-reports/${incident.id}/pack/`, { days: 90 })).statusCode).toBe(400);
  });
});
