import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiagnosticRun, DiagnosticTarget } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestClip } from '../src/platform/ffmpeg/index.ts';
import { followRun } from './device-ops-fixtures.ts';
import { raise } from './helpdesk-fixtures.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';
import { startRtspCamera } from './support/rtsp-camera.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

/** The RTSP stream probe of /diagnostics against a real RTSP source on loopback (a lab setting allows loopback). */

let t: TestApp;
let admin: TestClient;
let dir: string;
let port: number;
let camera: Awaited<ReturnType<typeof startRtspCamera>>;
let site: { id: number };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'device-ops-rtsp-'));
  process.env.VIDEO_STREAM_NETWORKS = 'any';
  t = await createTestApp({ DATA_DIR: dir, OUTBOUND_NETWORKS: '127.0.0.0/8' });
  delete process.env.VIDEO_STREAM_NETWORKS;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
  admin = await t.login('customeradmin');
  camera = await startRtspCamera(await ensureTestClip(join(dir, 'clip.mp4'), { width: 320, height: 240 }), dir);
  site = await makeSite(admin, { name: 'Probe Lab' });
}, 60_000);

afterAll(async () => {
  await camera?.stop();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const start = (deviceId: number) => admin.post('/api/device-ops/diagnostics/runs/', { deviceId, tool: 'rtsp' });

async function finished(id: number): Promise<DiagnosticRun> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const run = (await admin.get(`/api/device-ops/diagnostics/runs/${id}/`)).json() as DiagnosticRun;
    if (run.status !== 'running' || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('RTSP stream probe', () => {
  it("probes a camera's configured stream: codec, resolution, frame rate and first frame, never its credentials", async () => {
    const cam = await makeDevice(admin, { type: 'CAMERA', assetId: site.id, label: 'CAM-PROBE' });
    const config = await admin.put(`/api/cameras/${cam.id}/configs/`, { streamUrl: camera.url, recordingEnabled: false, segmentSec: 2 });
    expect(config.statusCode, config.body).toBe(200);
    const listed = await admin.get(`/api/device-ops/diagnostics/targets/?assetId=${site.id}`);
    const target = (listed.json().contents as DiagnosticTarget[]).find((x) => x.deviceId === cam.id);
    expect(target).toMatchObject({ tools: ['rtsp', 'last-contact'], stream: camera.url.replace('viewer:secret@', '***@') });
    expect(listed.body).not.toContain('secret');

    const res = await start(cam.id);
    expect(res.statusCode, res.body).toBe(201);
    const run = res.json() as DiagnosticRun;
    expect(run.target).toBe(camera.url.replace('viewer:secret@', '***@'));
    const messages = await followRun(port, run.id, admin);
    const lines = messages.flatMap((m) => (m.type === 'line' ? [m.text] : []));
    expect(lines[0]).toBe(`RTSP stream probe: ${run.target}`);
    expect(lines).toContain('Stream reachable');
    expect(lines.find((l) => l.startsWith('Codec:'))).toMatch(/^Codec: h264/);
    expect(lines).toContain('Resolution: 320x240');
    expect(lines).toContain('Frame rate: 25 fps');
    expect(lines.find((l) => l.startsWith('Time to first frame:'))).toMatch(/^Time to first frame: \d+ ms$/);
    expect(messages.at(-1)).toEqual({ type: 'end', status: 'succeeded' });

    const stored = await finished(run.id);
    expect(stored.status).toBe('succeeded');
    expect(stored.output).toContain('Resolution: 320x240');
    const row = await t.db.selectFrom('diagnostic_runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
    const ticket = await raise(admin, { title: 'Camera check' });
    expect((await admin.post(`/api/device-ops/diagnostics/runs/${run.id}/attach/`, { ticketId: ticket.id })).statusCode).toBe(200);
    const comments = (await admin.get(`/helpdesk/tickets/${ticket.id}/comments/`)).json().contents as { text: string }[];
    expect(comments[0]?.text).toContain('Codec: h264');
    for (const text of [JSON.stringify(messages), JSON.stringify(row), res.body, JSON.stringify(stored), comments[0]?.text ?? ''])
      expect(text).not.toContain('secret');
  }, 30_000);

  it('tells a refused stream by its category, with the credentials of a declared URL kept out', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const free = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const encoder = await makeDevice(admin, {
      type: 'CAMERA',
      assetId: site.id,
      label: 'ENC-REFUSED',
      metadata: { rtspUrl: `rtsp://admin:hunter2@127.0.0.1:${free}/stream?token=abc123` },
    });
    const res = await start(encoder.id);
    expect(res.statusCode, res.body).toBe(201);
    const run = res.json() as DiagnosticRun;
    const messages = await followRun(port, run.id, admin);
    const lines = messages.flatMap((m) => (m.type === 'line' ? [m.text] : []));
    expect(lines).toContain(`TCP connect to 127.0.0.1:${free}: Connection refused`);
    expect(messages.at(-1)).toEqual({ type: 'end', status: 'failed' });
    const stored = await finished(run.id);
    expect(stored.status).toBe('failed');
    for (const text of [JSON.stringify(messages), res.body, JSON.stringify(stored)]) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('abc123');
    }
  }, 30_000);

  it('tells a stream that is not there (the server answers, the path is unknown)', async () => {
    // an RTSP server that knows no such path: the connect succeeds, the stream does not open
    const mute = createServer((s) => {
      s.on('error', () => undefined);
      s.on('data', (chunk) => {
        const cseq = /CSeq:\s*(\d+)/i.exec(chunk.toString('latin1'))?.[1] ?? '1';
        s.write(`RTSP/1.0 404 Not Found\r\nCSeq: ${cseq}\r\n\r\n`);
      });
    });
    await new Promise<void>((r) => mute.listen(0, '127.0.0.1', () => r()));
    const mutePort = (mute.address() as { port: number }).port;
    const device = await makeDevice(admin, {
      type: 'CAMERA',
      assetId: site.id,
      metadata: { rtspUrl: `rtsp://127.0.0.1:${mutePort}/nothing` },
    });
    const run = (await start(device.id)).json() as DiagnosticRun;
    const lines = (await followRun(port, run.id, admin)).flatMap((m) => (m.type === 'line' ? [m.text] : []));
    mute.close();
    expect(lines.some((l) => l.startsWith(`TCP connect to 127.0.0.1:${mutePort}: reachable in`))).toBe(true);
    expect(lines.at(-1)).toBe('Stream failed: Stream not found');
    expect((await finished(run.id)).status).toBe('failed');
  }, 30_000);
});
