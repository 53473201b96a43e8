import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LINK_TOKEN_HEADER, sharedCameraPlaylistPath } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recorder } from '../src/modules/video/recorder.ts';
import { grantOperators } from './dashboards-fixtures.ts';
import { userId } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

/**
 * Camera tiles of a shared analytics link play live for the link holder, without a session: the playlist and its
 * media are verified against the link on every request, and only the dashboard's cameras inside the link's
 * conditions and its creator's current scope are served.
 */

process.env.VIDEO_SIM_SIZE = '320x240';

const clock = createTestClock();
let t: TestApp;
let admin: TestClient;
let field: TestClient;
let anon: TestClient;
let dataDir: string;
let recorder: Recorder;
let north: number;
let northCam: number;
let southCam: number;
let dashboardId: number;
let fieldId: number;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function camera(label: string) {
  const site = (await admin.post('/iotapp/assets/', { name: `Site ${label}`, address: ['India', 'Pune'] })).json();
  const router = (await admin.post('/iotapp/devices/', { label: `Router ${label}`, type: 'ROUTER', assetId: site.id })).json();
  const dvr = (await admin.post('/iotapp/devices/', { label: `DVR ${label}`, type: 'DVR', assetId: site.id, parentId: router.id })).json();
  const cam = await admin.post('/iotapp/devices/', { label, type: 'CAMERA', assetId: site.id, parentId: dvr.id });
  expect(cam.statusCode, cam.body).toBe(201);
  const configured = await admin.put(`/api/cameras/${cam.json().id}/configs/`, {
    simulated: true,
    recordingEnabled: true,
    segmentSec: 2,
    streamUrl: 'rtsp://viewer:s3cret@10.0.0.9/stream1',
  });
  expect(configured.statusCode, configured.body).toBe(200);
  return { siteId: site.id as number, camId: cam.json().id as number };
}

async function share(client: TestClient, conditions: unknown[], expiresInMs = 86_400_000) {
  const res = await client.post('/iotapp/analytics-links/', {
    dashboardId,
    label: 'Gate video',
    expiresAt: new Date(clock.now().getTime() + expiresInMs).toISOString(),
    rls_conditions: conditions,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, token: (res.json().path as string).split('/')[3] as string };
}

const withToken = (token: string) => ({ headers: { [LINK_TOKEN_HEADER]: token } });
const playlist = (token: string, widgetId: string, client = anon) =>
  client.get(sharedCameraPlaylistPath(dashboardId, widgetId), withToken(token));
const media = (token: string, widgetId: string, run: string, file: string, client = anon) =>
  client.get(`/iotapp/analytics-dashboard/${dashboardId}/cameras/${widgetId}/media/${run}/${file}`, withToken(token));

/** The live playlist once the camera streams (the first request starts it and may answer 503 meanwhile). */
async function livePlaylist(token: string, widgetId: string) {
  const end = Date.now() + 40_000;
  for (;;) {
    await recorder.flush();
    const res = await playlist(token, widgetId);
    if (res.statusCode === 200) return res;
    expect(res.statusCode, res.body).toBe(503);
    if (Date.now() > end) throw new Error('the camera did not stream');
    await sleep(500);
  }
}

function expectRefused(res: { statusCode: number; body: string; json(): { code?: string } }, status: number, code?: string) {
  expect(res.statusCode, res.body).toBe(status);
  if (code) expect(res.json().code).toBe(code);
  expect(res.body).not.toMatch(/rtsp|s3cret|#EXTM3U/);
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'dashboard-cameras-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { clock });
  admin = await t.login('customeradmin');
  anon = t.anonymous();
  ({ siteId: north, camId: northCam } = await camera('Link Gate North'));
  ({ camId: southCam } = await camera('Link Gate South'));
  const res = await admin.post('/iotapp/dashboards/', {
    name: 'Gate wall',
    config: { type: 'ANALYTICS' },
    widgets: [
      { id: 'gateNorth', kind: 'camera', cameraId: northCam },
      { id: 'gateSouth', kind: 'camera', cameraId: southCam },
      { id: 'summary', kind: 'siteSummary' },
    ],
  });
  expect(res.statusCode, res.body).toBe(201);
  dashboardId = res.json().id;
  // the field executive sees North only, and may share
  fieldId = await userId(t, t.tenantA, 'fieldexecutive');
  expect((await admin.post('/iotapp/user-assets/', { userId: fieldId, assetIds: [north] })).statusCode).toBe(200);
  await grantOperators(t, [
    { codename: 'share_dashboard', name: 'share_dashboard' },
    { codename: 'view_camera', name: 'view_camera' },
  ]);
  field = await t.login('fieldexecutive');
  recorder = t.handles.video.recorder;
  await recorder.start();
}, 90_000);

afterAll(async () => {
  await t?.close().catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
  delete process.env.VIDEO_SIM_SIZE;
});

describe('a camera tile of a shared link', () => {
  it('plays live without a session: a playlist of media under the link, never the stream URL', async () => {
    const { token } = await share(admin, [{ dataset: 'sites', column: 'id', operator: 'in', values: [north] }]);
    const res = await livePlaylist(token, 'gateNorth');
    expect(res.headers['content-type']).toContain('mpegurl');
    expect(res.headers['cache-control']).toBe('no-store');
    // media under the link's own path; the token is in no URL
    expect(res.body).not.toMatch(/rtsp|s3cret|\/api\/cameras|token/);
    expect(res.body).not.toContain(token.slice(12, 40));
    const init = /URI="([^"]+)"/.exec(res.body)?.[1] as string;
    const segment = res.body.split('\n').find((l) => /^media\/[a-z0-9]+\/seg-\d+\.m4s$/.test(l)) as string;
    expect(init).toMatch(/^media\/[a-z0-9]+\/init\.mp4$/);
    expect(segment).toBeTruthy();
    const base = `http://x${sharedCameraPlaylistPath(dashboardId, 'gateNorth')}`;
    for (const ref of [init, segment]) {
      const url = new URL(ref, base);
      const file = await anon.get(url.pathname, withToken(token));
      expect(file.statusCode, url.pathname).toBe(200);
      expect(file.rawPayload.length).toBeGreaterThan(0);
      // the same file without the token is refused
      expectRefused(await anon.get(url.pathname), 403, 'link_malformed');
    }
    // watching through the link holds the camera's live-view lease
    const row = await t.db.selectFrom('video_cameras').select('live_until').where('device_id', '=', northCam).executeTakeFirstOrThrow();
    expect(new Date(row.live_until as Date).getTime()).toBeGreaterThan(Date.now());
  }, 60_000);

  it("refuses a camera outside the link's conditions, a widget not on the dashboard, and another camera's footage", async () => {
    const { token } = await share(admin, [{ dataset: 'sites', column: 'id', operator: 'in', values: [north] }]);
    expectRefused(await playlist(token, 'gateSouth'), 404);
    expectRefused(await playlist(token, 'elsewhere'), 404);
    expectRefused(await playlist(token, 'summary'), 404);
    const run = (await t.db.selectFrom('video_segments').select('run').where('device_id', '=', southCam).executeTakeFirst())?.run as
      | string
      | undefined;
    if (run) {
      expectRefused(await media(token, 'gateSouth', run, 'init.mp4'), 404);
      // a run of the south camera named under the north tile is not found
      expectRefused(await media(token, 'gateNorth', run, 'init.mp4'), 404);
    }
    expectRefused(await media(token, 'gateNorth', 'abcdef', '..%2F..%2Fetc%2Fpasswd'), 400);
  });

  it("serves only cameras inside its creator's current sites", async () => {
    const { token } = await share(field, []);
    expect((await livePlaylist(token, 'gateNorth')).statusCode).toBe(200);
    expectRefused(await playlist(token, 'gateSouth'), 404);
    // the creator loses North: the same link no longer plays it
    expect((await admin.post('/iotapp/user-assets/remove/', { userId: fieldId, assetIds: [north] })).statusCode).toBe(200);
    try {
      expectRefused(await playlist(token, 'gateNorth'), 404);
    } finally {
      expect((await admin.post('/iotapp/user-assets/', { userId: fieldId, assetIds: [north] })).statusCode).toBe(200);
    }
  });

  it('refuses a revoked, tampered, expired or other-tenant link on the playlist and the media', async () => {
    const { id, token } = await share(admin, []);
    const ok = await livePlaylist(token, 'gateNorth');
    const run = /media\/([a-z0-9]+)\/init\.mp4/.exec(ok.body)?.[1] as string;
    expect((await media(token, 'gateNorth', run, 'init.mp4')).statusCode).toBe(200);

    const mid = Math.floor(token.length / 2);
    const tampered = `${token.slice(0, mid)}${token[mid] === 'A' ? 'B' : 'A'}${token.slice(mid + 1)}`;
    expectRefused(await playlist(tampered, 'gateNorth'), 403, 'link_tampered');
    expectRefused(await media(tampered, 'gateNorth', run, 'init.mp4'), 403, 'link_tampered');

    const other = t.anonymous(HOST_B);
    expectRefused(await playlist(token, 'gateNorth', other), 403, 'link_wrong_tenant');
    expectRefused(await media(token, 'gateNorth', run, 'init.mp4', other), 403, 'link_wrong_tenant');

    expect((await admin.post(`/iotapp/analytics-links/${id}/revoke/`)).statusCode).toBe(200);
    expectRefused(await playlist(token, 'gateNorth'), 403, 'link_revoked');
    expectRefused(await media(token, 'gateNorth', run, 'init.mp4'), 403, 'link_revoked');

    const short = await share(admin, [], 60_000);
    expect((await livePlaylist(short.token, 'gateNorth')).statusCode).toBe(200);
    clock.advance(120_000);
    expectRefused(await playlist(short.token, 'gateNorth'), 403, 'link_expired');
    expectRefused(await media(short.token, 'gateNorth', run, 'init.mp4'), 403, 'link_expired');
    // no token at all, or one in the query string, is refused
    expectRefused(await anon.get(sharedCameraPlaylistPath(dashboardId, 'gateNorth')), 403, 'link_malformed');
    expectRefused(await anon.get(`${sharedCameraPlaylistPath(dashboardId, 'gateNorth')}?token=${token}`), 400);
  }, 60_000);
});
