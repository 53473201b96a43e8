import { mkdtemp, rm } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { DEMO_TENANTS, seedFoundation } from '../src/demo/foundation.ts';
import { addressAllowed } from '../src/modules/video/network.ts';
import { classifyStreamFailure, STREAM_FAILURES, scrubCredentials } from '../src/modules/video/stream-failure.ts';
import { freshDatabase } from './support/database.ts';
import { CAPTCHA, TestClient } from './support/harness.ts';
import { freePort } from './telemetry-fixtures.ts';

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('camera URL addresses', () => {
  it('refuses IPv6 forms that embed IPv4 and the host’s own interface addresses', () => {
    for (const address of [
      '::127.0.0.1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.5',
      '::ffff:0:7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b:1::a00:5',
      '2002:7f00:1::1',
      '2001:0:4136:e378::1',
    ]) {
      expect(addressAllowed(address, 'private'), address).toBe(false);
    }
    const own = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal)
      .map((i) => i?.address.replace(/%.*$/, '') as string);
    for (const address of own) expect(addressAllowed(address, 'private'), address).toBe(false);
    expect(addressAllowed('10.0.0.5', 'private')).toBe(true);
    expect(addressAllowed('2606:4700::1111', 'public')).toBe(true);
  });
});

describe('stream failures', () => {
  it('are reported as categories, and credentials are scrubbed from any text', () => {
    expect(classifyStreamFailure('[tcp @ 0x1] Connection to tcp://10.0.0.5:554?timeout=0 failed: Connection refused')).toBe(
      STREAM_FAILURES.refused,
    );
    expect(classifyStreamFailure('rtsp://a:b@10.0.0.5/x: Connection timed out')).toBe(STREAM_FAILURES.timeout);
    expect(classifyStreamFailure('method DESCRIBE failed: 401 Unauthorized')).toBe(STREAM_FAILURES.auth);
    expect(classifyStreamFailure('No route to host')).toBe(STREAM_FAILURES.unreachable);
    expect(classifyStreamFailure('something else entirely')).toBe(STREAM_FAILURES.ended);
    expect(scrubCredentials('rtsp://admin:S3cret@10.0.0.5:554/x failed; rtsps://u:p@h/ and http://h/?password=S3cret&x=1')).toBe(
      'rtsp://***@10.0.0.5:554/x failed; rtsps://***@h/ and http://h/?password=***&x=1',
    );
  });

  it('keep the RTSP password out of replies and log lines when a camera cannot be reached', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'video-net-'));
    const database = await freshDatabase();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // a lab setting so the camera may point at loopback, where nothing listens: ffmpeg fails with the URL in its text
    const config = loadConfig({
      NODE_ENV: 'test',
      DEMO: 'false',
      WEB_DIST: '/nonexistent',
      DATA_DIR: dir,
      CAPTCHA_FIXED_ANSWER: CAPTCHA,
      LOGIN_RATE_LIMIT_PER_MINUTE: '10000',
      OUTBOUND_NETWORKS: '127.0.0.0/8',
    });
    process.env.VIDEO_STREAM_NETWORKS = 'any';
    const { app, handles } = await buildApp({ config, database, logger: { level: 'debug', stream } });
    await app.ready();
    delete process.env.VIDEO_STREAM_NETWORKS;
    await seedFoundation(database.db, DEMO_TENANTS[0] as (typeof DEMO_TENANTS)[0]);
    cleanups.push(async () => {
      await app.close();
      await database.close();
      await rm(dir, { recursive: true, force: true });
    });
    const admin = new TestClient(app, 'localhost');
    await admin.signIn('customeradmin');
    const asset = (await admin.post('/iotapp/assets/', { name: 'Lab', address: ['Lab'] })).json();
    const router = (await admin.post('/iotapp/devices/', { label: 'R', type: 'ROUTER', assetId: asset.id })).json();
    const dvr = (await admin.post('/iotapp/devices/', { label: 'NVR', type: 'DVR', assetId: asset.id, parentId: router.id })).json();
    const cam = (await admin.post('/iotapp/devices/', { label: 'Cam', type: 'CAMERA', assetId: asset.id, parentId: dvr.id })).json().id;
    const url = `rtsp://admin:S3cret@127.0.0.1:${await freePort()}/live`;
    const saved = await admin.put(`/api/cameras/${cam}/configs/`, { streamUrl: url, recordingEnabled: true, segmentSec: 2 });
    expect(saved.statusCode).toBe(200);
    const recorder = handles.video.recorder;
    await recorder.start();
    let camera: { state: string; lastError: string | null } = { state: '', lastError: null };
    const until = Date.now() + 30_000;
    while (camera.state !== 'retrying' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 300));
      camera = (await admin.get(`/api/cameras/${cam}/`)).json();
    }
    expect(camera).toMatchObject({ state: 'retrying', lastError: STREAM_FAILURES.refused });
    const replies = [(await admin.get('/api/cameras/')).body, (await admin.get(`/api/cameras/${cam}/`)).body, saved.body];
    for (const body of replies) expect(body).not.toContain('S3cret');
    expect(lines.some((l) => l.includes('camera stream stopped'))).toBe(true);
    expect(lines.filter((l) => l.includes('S3cret'))).toEqual([]);
  }, 60_000);
});
