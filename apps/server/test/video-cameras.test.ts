import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoOnDemandSeeder } from '../src/demo/video.ts';
import { camerasToRun } from '../src/modules/video/repository.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';

/** One notion of camera (issue 11, finding 16): a camera is a device of type CAMERA, configured or not. */

let t: TestApp;
let admin: TestClient;
let site: { id: number; name: string };
let cams: number[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  const name = `Camera site ${Date.now()}`;
  site = { ...(await admin.post('/iotapp/assets/', { name, address: ['India', 'Goa'] })).json(), name };
  const router = (await admin.post('/iotapp/devices/', { label: 'Goa Router', type: 'ROUTER', assetId: site.id })).json();
  const dvr = (await admin.post('/iotapp/devices/', { label: 'Goa DVR', type: 'DVR', assetId: site.id, parentId: router.id })).json();
  cams = [];
  for (const label of ['Goa Cam A', 'Goa Cam B', 'Goa Cam C']) {
    cams.push((await admin.post('/iotapp/devices/', { label, type: 'CAMERA', assetId: site.id, parentId: dvr.id })).json().id);
  }
  // only the first has a video config (recording off: no ffmpeg in this test)
  expect((await admin.put(`/api/cameras/${cams[0]}/configs/`, { simulated: true, recordingEnabled: false })).statusCode).toBe(200);
});
afterAll(() => t?.close());

describe('cameras', () => {
  it('lists every CAMERA device, configured or not, and counts them as the site summaries do', async () => {
    const list = (await admin.get(`/api/cameras/?assetId=${site.id}`)).json();
    expect(list.totalCount).toBe(3);
    expect(list.contents.map((c: { id: number; configured: boolean }) => [c.id, c.configured])).toEqual([
      [cams[0], true],
      [cams[1], false],
      [cams[2], false],
    ]);
    expect(list.contents[1]).toMatchObject({ label: 'Goa Cam B', parentLabel: 'Goa DVR', assetId: site.id, state: 'idle' });
    expect((await admin.get(`/api/cameras/?assetId=${site.id}&configured=false`)).json().totalCount).toBe(2);
    expect((await admin.get(`/api/cameras/?assetId=${site.id}&configured=true`)).json().totalCount).toBe(1);
    // screens that keep a chosen list look it up by id, however many cameras the tenant has
    const chosen = (await admin.get(`/api/cameras/?ids=${cams[2]},${cams[0]}`)).json();
    expect(chosen.contents.map((c: { id: number }) => c.id)).toEqual([cams[0], cams[2]]);

    const detailed = (await admin.get(`/iotapp/assets/detailed-summary/?searchText=${encodeURIComponent(site.name)}`)).json();
    const row = detailed.contents.find((r: { id: number }) => r.id === site.id);
    expect(row?.cameraCount).toBe(3);
    // the device counts by type (site summary, device pages) say the same
    expect((await admin.get(`/iotapp/devices/?type=CAMERA&assetId=${site.id}`)).json().totalCount).toBe(3);
  });

  it('the demo makes every unconfigured camera viewable on demand, running nothing until someone watches', {
    timeout: 60_000,
  }, async () => {
    await videoOnDemandSeeder.run({
      db: t.db,
      tenantId: t.tenantA,
      slug: 'demo',
      random: { next: () => 0.5 } as never,
      log: { info() {}, warn() {} },
    });
    const list = (await admin.get(`/api/cameras/?assetId=${site.id}`)).json();
    expect(list.contents).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: cams[1], configured: true, simulated: true, recordingEnabled: false })]),
    );
    const running = async () => (await camerasToRun(t.db)).map((r) => r.device_id).filter((id) => cams.includes(id));
    expect(await running()).toEqual([]);
    // opening the live view starts it (a lease the player renews), closing it stops it
    const live = await admin.get(`/api/cameras/${cams[1]}/live-view/`);
    expect(live.statusCode).toBe(200);
    expect(await running()).toEqual([cams[1]]);
    expect((await admin.delete(`/api/cameras/${cams[1]}/live-view/`)).statusCode).toBe(200);
    expect(await running()).toEqual([]);
    // its snapshot, while nobody watches, is its simulated picture: nothing is started for it
    const snap = (await admin.get(`/api/cameras/${cams[1]}/snapshot/`)).json();
    expect(snap.path).toMatch(new RegExp(`^/api/cameras/${cams[1]}/snapshot/image/`));
    const image = await admin.get(snap.path);
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await running()).toEqual([]);
    // a camera with a configured stream keeps it
    expect((await admin.get(`/api/cameras/${cams[0]}/`)).json()).toMatchObject({ configured: true });
  });

  it('shows a user only the cameras of the sites they may see', async () => {
    const user = await t.login('customer');
    const ids = (await user.get('/api/cameras/?limit=200')).json().contents.map((c: { id: number }) => c.id);
    for (const id of cams) expect(ids).not.toContain(id);
  });
});
