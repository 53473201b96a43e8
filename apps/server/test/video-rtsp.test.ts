import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Recorder } from '../src/modules/video/recorder.ts';
import { ensureTestClip, ffmpegPath } from '../src/platform/ffmpeg/index.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';

/**
 * An RTSP camera on loopback, made of ffmpeg only: ffmpeg streams the test clip as RTP (with its SDP), and a few
 * lines of RTSP here answer DESCRIBE/SETUP/PLAY and relay the RTP packets interleaved over the TCP connection,
 * which is how the recorder's ffmpeg (-rtsp_transport tcp) pulls a real camera.
 */
async function startRtspCamera(clip: string, dir: string) {
  const udp = createSocket('udp4');
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  const udpPort = udp.address().port;
  const sdpFile = join(dir, 'cam.sdp');
  const source: ChildProcess = spawn(
    ffmpegPath,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-stream_loop',
      '-1',
      '-i',
      clip,
      '-c',
      'copy',
      '-an',
      '-f',
      'rtp',
      '-sdp_file',
      sdpFile,
      `rtp://127.0.0.1:${udpPort}`,
    ],
    { stdio: 'ignore' },
  );
  let sdp = '';
  for (let i = 0; i < 50 && !sdp.includes('m=video'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    sdp = await readFile(sdpFile, 'utf8').catch(() => '');
  }
  sdp = `${sdp.replace(/\r?\n/g, '\r\n').trim()}\r\na=control:trackID=0\r\n`;
  const players = new Set<Socket>();
  udp.on('message', (packet) => {
    const frame = Buffer.alloc(4 + packet.length);
    frame[0] = 0x24;
    frame[1] = 0;
    frame.writeUInt16BE(packet.length, 2);
    packet.copy(frame, 4);
    for (const s of players) if (!s.destroyed) s.write(frame);
  });
  const server: Server = createServer((socket) => {
    let buffer = '';
    socket.on('error', () => players.delete(socket));
    socket.on('close', () => players.delete(socket));
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const request = buffer.slice(0, end);
        buffer = buffer.slice(end + 4);
        const [line, ...headers] = request.split('\r\n');
        const [method, url] = (line ?? '').split(' ');
        const cseq =
          headers
            .find((h) => /^cseq:/i.test(h))
            ?.split(':')[1]
            ?.trim() ?? '0';
        const reply = (extra: string[], body = '') =>
          socket.write(
            [`RTSP/1.0 200 OK`, `CSeq: ${cseq}`, ...extra, ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []), '', body].join(
              '\r\n',
            ),
          );
        if (method === 'OPTIONS') reply(['Public: OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN']);
        else if (method === 'DESCRIBE') reply([`Content-Base: ${url}/`, 'Content-Type: application/sdp'], sdp);
        else if (method === 'SETUP') reply(['Transport: RTP/AVP/TCP;unicast;interleaved=0-1', 'Session: 4242;timeout=60']);
        else if (method === 'PLAY') {
          reply(['Session: 4242', 'Range: npt=0.000-']);
          players.add(socket);
        } else reply(['Session: 4242']);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `rtsp://viewer:secret@127.0.0.1:${port}/live`,
    async stop() {
      if (!server.listening) return;
      source.kill('SIGKILL');
      for (const s of players) s.destroy();
      await new Promise((r) => server.close(r));
      udp.close();
    },
  };
}

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
  t = await createTestApp({ DATA_DIR: dir });
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
