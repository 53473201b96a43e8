import { ASSET_MESSAGES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeEstateSite, makeSite, userId } from './support/sites-factory.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

describe('assets', () => {
  it('creates, reads, updates and deletes a site, refusing duplicate names', async () => {
    const site = await makeSite(admin, { name: 'Koramangala 5th Block', metadata: { assetCode: 'BLR-001', merchantId: 'M-77' } });
    expect(site).toMatchObject({
      name: 'Koramangala 5th Block',
      address: ['India', 'Karnataka', 'Bengaluru'],
      metadata: { assetCode: 'BLR-001' },
    });
    const dup = await admin.post('/iotapp/assets/', { name: 'koramangala 5TH block', address: ['India'] });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe(ASSET_MESSAGES.alreadyExists);

    const fetched = (await admin.get(`/iotapp/assets/${site.id}/`)).json();
    expect(fetched).toMatchObject({ id: site.id, deviceCount: 0, customerId: null });

    const updated = await admin.put(`/iotapp/assets/${site.id}/`, {
      address: ['India', 'Karnataka', 'Bengaluru', 'Koramangala'],
      latitude: 12.93,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      address: ['India', 'Karnataka', 'Bengaluru', 'Koramangala'],
      latitude: 12.93,
      longitude: 77.59,
    });

    const router = await makeDevice(admin, { type: 'ROUTER', assetId: site.id, label: 'RTR' });
    expect(router.name).toBe('BLR-001:RTR');
    // A new site code renames the site's devices.
    await admin.put(`/iotapp/assets/${site.id}/`, { metadata: { assetCode: 'BLR-100' } });
    expect((await admin.get(`/iotapp/devices/${router.id}/`)).json().name).toBe('BLR-100:RTR');

    expect((await admin.delete(`/iotapp/assets/${site.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/assets/${site.id}/`)).statusCode).toBe(404);
    // Its devices go back to the inventory.
    expect((await admin.get(`/iotapp/devices/${router.id}/`)).json()).toMatchObject({ assetId: null, asset: null });
  });

  it('validates bodies and queries with clear 400s', async () => {
    const noAddress = await admin.post('/iotapp/assets/', { name: 'Nowhere', address: [] });
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().detail).toContain('Add at least one address level');
    expect((await admin.post('/iotapp/assets/', { name: 'Pole', address: ['X'], latitude: 91 })).json().detail).toContain('Latitude');
    const unknown = await admin.get('/iotapp/assets/?colour=red');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toBe('Colour is not a known field');
    expect((await admin.get('/iotapp/assets/?limit=abc')).json().detail).toMatch(/^Limit /);
    expect((await admin.get('/iotapp/assets/?orderBy=colour')).json().detail).toContain('Order by must be one of');
    const ids = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    expect((await admin.get(`/iotapp/assets/?ids=${ids}`)).json().detail).toContain('at most 500');
    expect((await admin.get('/iotapp/assets/?ids=1,x')).statusCode).toBe(400);
    expect((await admin.get('/iotapp/assets/abc/')).statusCode).toBe(400);
    expect((await admin.post('/iotapp/assets/', { name: 'Bad customer', address: ['X'], customerId: 999999 })).statusCode).toBe(400);
  });

  it('filters, searches, sorts and pages in SQL', async () => {
    const tag = `F${Date.now()}`;
    const a = await makeSite(admin, {
      name: `${tag} Alpha`,
      address: ['Kenya', 'Nairobi'],
      metadata: { assetCode: `${tag}-A`, merchantId: `${tag}-MA` },
    });
    const b = await makeSite(admin, {
      name: `${tag} Beta`,
      address: ['Kenya', 'Mombasa'],
      metadata: { assetCode: `${tag}-B` },
      latitude: 0,
      longitude: 0,
    });
    const c = await makeSite(admin, { name: `${tag} Gamma`, address: ['Kenya', 'Nairobi'], metadata: { assetCode: `${tag}-C` } });
    const names = async (query: string) =>
      (await admin.get(`/iotapp/assets/?${query}`)).json().contents.map((x: { name: string }) => x.name);
    expect(await names(`name__iexact=${encodeURIComponent(`${tag} alpha`)}`)).toEqual([`${tag} Alpha`]);
    expect(await names(`name__icontains=${tag}&orderBy=-name`)).toEqual([`${tag} Gamma`, `${tag} Beta`, `${tag} Alpha`]);
    expect(await names(`metadata__assetCode=${tag}-B`)).toEqual([`${tag} Beta`]);
    expect(await names(`metadata__merchantId=${tag}-MA`)).toEqual([`${tag} Alpha`]);
    expect(await names(`ids=${a.id},${c.id}`)).toEqual([`${tag} Alpha`, `${tag} Gamma`]);
    expect(await names(`searchText=${tag}-C&searchKeys=assetCode`)).toEqual([`${tag} Gamma`]);
    expect(await names(`searchText=${tag}-C&searchKeys=name`)).toEqual([]);
    expect(await names(`name__icontains=${tag}&address=Kenya&address=Nairobi`)).toEqual([`${tag} Alpha`, `${tag} Gamma`]);
    expect(await names(`name__icontains=${tag}&hasLocation=false`)).toEqual([`${tag} Beta`]);
    const page = (await admin.get(`/iotapp/assets/?name__icontains=${tag}&limit=2&page=2`)).json();
    expect(page.totalCount).toBe(3);
    expect(page.contents.map((x: { id: number }) => x.id)).toEqual([c.id]);
    void b;
  });

  it('lists the users of a site by role with showRoles and userRole', async () => {
    const site = await makeSite(admin);
    const fe = await userId(admin, 'vendor');
    const sm = await userId(admin, 'storemanager');
    await admin.post('/iotapp/user-assets/', { userId: fe, assetIds: [site.id] });
    await admin.post('/iotapp/user-assets/', { userId: sm, assetIds: [site.id] });
    const withRoles = (await admin.get(`/iotapp/assets/${site.id}/?showRoles=true`)).json();
    expect(Object.keys(withRoles.roles).sort()).toEqual(['storemanager', 'vendor']);
    expect(withRoles.roles.vendor[0]).toMatchObject({ id: fe, email: 'vendor@demo.example.com' });
    const one = (await admin.get(`/iotapp/assets/${site.id}/?userRole=storemanager`)).json();
    expect(Object.keys(one.roles)).toEqual(['storemanager']);
    expect((await admin.get(`/iotapp/assets/${site.id}/`)).json().roles).toBeUndefined();
  });

  it('needs the asset permissions to write', async () => {
    const viewer = await t.login('customer');
    expect((await viewer.get('/iotapp/assets/')).statusCode).toBe(200);
    expect((await viewer.post('/iotapp/assets/', { name: 'Viewer site', address: ['X'] })).statusCode).toBe(403);
    const site = await makeSite(admin);
    expect((await viewer.put(`/iotapp/assets/${site.id}/`, { name: 'renamed' })).statusCode).toBe(403);
    expect((await viewer.delete(`/iotapp/assets/${site.id}/`)).statusCode).toBe(403);
  });
});

describe('tenant isolation and user-asset scoping', () => {
  it("never shows one tenant's sites to another", async () => {
    const site = await makeSite(admin, { name: `Tenant A only ${Date.now()}` });
    const otherAdmin = await t.login('customeradmin', HOST_B);
    const list = (await otherAdmin.get(`/iotapp/assets/?name__icontains=Tenant A only&limit=500`)).json();
    expect(list.totalCount).toBe(0);
    expect((await otherAdmin.get(`/iotapp/assets/${site.id}/`)).statusCode).toBe(404);
    expect((await otherAdmin.put(`/iotapp/assets/${site.id}/`, { name: 'stolen' })).statusCode).toBe(404);
    expect((await otherAdmin.delete(`/iotapp/assets/${site.id}/`)).statusCode).toBe(404);
    expect((await otherAdmin.get(`/iotapp/assets/${site.id}/device-counts/`)).statusCode).toBe(404);
    const tree = (await otherAdmin.get('/iotapp/assets/tree/')).json();
    expect(tree.siteCount).toBe(0);
  });

  it('shows a user only the sites assigned to them, and their devices', async () => {
    const fe = await t.login('fieldexecutive');
    const feId = fe.user?.id as number;
    const mine = await makeEstateSite(admin, { name: `Mine ${Date.now()}` });
    const theirs = await makeEstateSite(admin, { name: `Theirs ${Date.now()}` });
    const before = (await fe.get('/iotapp/assets/?limit=500')).json();
    expect(before.contents.map((s: { id: number }) => s.id)).not.toContain(mine.site.id);

    await admin.post('/iotapp/user-assets/', { userId: feId, assetIds: [mine.site.id] });
    const after = (await fe.get('/iotapp/assets/?limit=500')).json();
    expect(after.contents.map((s: { id: number }) => s.id)).toContain(mine.site.id);
    expect(after.contents.map((s: { id: number }) => s.id)).not.toContain(theirs.site.id);
    expect((await fe.get(`/iotapp/assets/${theirs.site.id}/`)).statusCode).toBe(404);

    const devices = (await fe.get('/iotapp/devices/?limit=500')).json();
    const assetIds = new Set(devices.contents.map((d: { assetId: number }) => d.assetId));
    expect([...assetIds]).toEqual([mine.site.id]);
    expect((await fe.get(`/iotapp/devices/${theirs.router.id}/`)).statusCode).toBe(404);
    const compact = (await fe.get(`/iotapp/devices/compact-list/?ids=${mine.router.id},${theirs.router.id}`)).json();
    expect(compact.contents.map((d: { id: number }) => d.id)).toEqual([mine.router.id]);
    const tree = (await fe.get('/iotapp/assets/tree/')).json();
    expect(tree.siteCount).toBe(1);
    const counts = (await fe.get('/iotapp/devices/status-counts/?types=ROUTER,CAMERA')).json();
    expect(counts.contents).toEqual([
      expect.objectContaining({ type: 'ROUTER', total: 1 }),
      expect.objectContaining({ type: 'CAMERA', total: 2 }),
    ]);
  });
});

describe('asset tree', () => {
  let fresh: TestApp;
  let a: TestClient;
  beforeAll(async () => {
    fresh = await createTestApp();
    a = await fresh.login('customeradmin');
    for (const [i, address] of [
      ['India', 'Karnataka', 'Bengaluru'],
      ['India', 'Karnataka', 'Mysuru'],
      ['India', 'Maharashtra', 'Mumbai'],
      ['Kenya', 'Nairobi'],
    ].entries()) {
      await makeSite(a, { name: `Tree site ${i}`, address });
    }
    for (let i = 0; i < 5; i++) await makeSite(a, { name: `Bengaluru store ${i}`, address: ['India', 'Karnataka', 'Bengaluru'] });
    await makeEstateSite(a, { name: 'Nairobi Central', address: ['Kenya', 'Nairobi'] });
  });
  afterAll(() => fresh?.close());

  it('expands address levels, then sites, with counts and paging', async () => {
    const root = (await a.get('/iotapp/assets/tree/')).json();
    expect(root.siteCount).toBe(10);
    expect(root.contents.map((n: { text: string; count: number }) => [n.text, n.count])).toEqual([
      ['India', 8],
      ['Kenya', 2],
    ]);
    const india = (await a.get('/iotapp/assets/tree/?path=India')).json();
    expect(india.contents.map((n: { text: string }) => n.text)).toEqual(['Karnataka', 'Maharashtra']);
    expect(india.contents[0]).toMatchObject({ nodeType: 'level', path: ['India', 'Karnataka'], children: true });
    const blr = (await a.get('/iotapp/assets/tree/?path=India&path=Karnataka&path=Bengaluru&limit=4')).json();
    expect(blr.totalCount).toBe(6);
    expect(blr.contents).toHaveLength(4);
    expect(blr.contents[0]).toMatchObject({ nodeType: 'asset', icon: 'site', iconColor: '#4F6F77', children: false });
    const more = (await a.get('/iotapp/assets/tree/?path=India&path=Karnataka&path=Bengaluru&limit=4&page=2')).json();
    expect(more.contents.map((n: { text: string }) => n.text)).toEqual(['Bengaluru store 4', 'Tree site 0']);
    const nairobi = (await a.get('/iotapp/assets/tree/?path=Kenya&path=Nairobi')).json();
    const central = nairobi.contents.find((n: { text: string }) => n.text === 'Nairobi Central');
    expect(central).toMatchObject({ nodeType: 'asset', children: true });
  });

  it('colours a site by the worst alarm of its devices and finds sites and devices by search', async () => {
    const list = (await a.get('/iotapp/devices/?label__icontains=CAM1')).json();
    await fresh.db.updateTable('devices').set({ alarm_status: 'CRITICAL' }).where('id', '=', list.contents[0].id).execute();
    const nairobi = (await a.get('/iotapp/assets/tree/?path=Kenya&path=Nairobi')).json();
    expect(nairobi.contents.find((n: { text: string }) => n.text === 'Nairobi Central')).toMatchObject({
      iconColor: '#c62828',
      alarmStatus: 'CRITICAL',
    });
    const found = (await a.get('/iotapp/assets/tree/search/?searchText=nairobi')).json();
    expect(found.sites.map((s: { text: string }) => s.text)).toEqual(['Nairobi Central']);
    const dev = (await a.get('/iotapp/assets/tree/search/?searchText=CAM')).json();
    expect(dev.devices.map((d: { text: string; siteName: string }) => [d.text, d.siteName])).toEqual([
      ['CAM1', 'Nairobi Central'],
      ['CAM2', 'Nairobi Central'],
    ]);
    expect((await a.get('/iotapp/assets/tree/search/')).statusCode).toBe(400);
  });
});

describe('site summary and map', () => {
  let fresh: TestApp;
  let a: TestClient;
  let estate: Awaited<ReturnType<typeof makeEstateSite>>[];
  beforeAll(async () => {
    fresh = await createTestApp();
    a = await fresh.login('customeradmin');
    estate = [
      await makeEstateSite(a, {
        name: 'Lagos Marina',
        address: ['Nigeria', 'Lagos'],
        latitude: 6.45,
        longitude: 3.39,
        metadata: { assetCode: 'LOS-1' },
      }),
      await makeEstateSite(a, {
        name: 'Abuja Wuse',
        address: ['Nigeria', 'FCT'],
        latitude: 9.07,
        longitude: 7.48,
        metadata: { assetCode: 'ABV-1' },
      }),
      await makeEstateSite(a, { name: 'No Location', address: ['Nigeria', 'Lagos'], latitude: 0, longitude: 0 }),
    ];
    const [lagos, abuja] = estate as [(typeof estate)[0], (typeof estate)[0]];
    await fresh.db
      .updateTable('devices')
      .set({ status: 'Online' })
      .where('id', 'in', [lagos.router.id, lagos.dvr.id, lagos.cam1.id])
      .execute();
    await fresh.db
      .updateTable('devices')
      .set({ status: 'Offline' })
      .where('id', 'in', [abuja.router.id, abuja.dvr.id, lagos.cam2.id])
      .execute();
    await fresh.db
      .updateTable('devices')
      .set({ state: JSON.stringify({ videoLoss: true }) })
      .where('id', '=', lagos.cam2.id)
      .execute();
  });
  afterAll(() => fresh?.close());

  it('counts devices per type and status', async () => {
    const res = (await a.get('/iotapp/devices/status-counts/?types=ROUTER,DVR,ALARMPANEL')).json();
    expect(res.contents).toEqual([
      { type: 'ROUTER', label: 'Router', total: 3, online: 1, offline: 1, notC: 1 },
      { type: 'DVR', label: 'DVR/NVR', total: 3, online: 1, offline: 1, notC: 1 },
      { type: 'ALARMPANEL', label: 'Alarm Panel', total: 0, online: 0, offline: 0, notC: 0 },
    ]);
    const all = (await a.get('/iotapp/devices/status-counts/')).json();
    expect(all.contents.map((c: { type: string }) => c.type).sort()).toEqual(['CAMERA', 'DVR', 'GENERATOR', 'HDD', 'ROUTER']);
    const lagosOnly = (await a.get('/iotapp/devices/status-counts/?types=CAMERA&path=Nigeria&path=Lagos')).json();
    expect(lagosOnly.contents[0]).toMatchObject({ total: 4, online: 1, offline: 1, notC: 2 });
    expect((await a.get('/iotapp/devices/status-counts/?types=TOASTER')).statusCode).toBe(400);
  });

  it('lists a summary row per site with search, sort, type filter and paging', async () => {
    const rows = (await a.get('/iotapp/assets/site-summary/?orderBy=-online')).json();
    expect(rows.totalCount).toBe(3);
    expect(rows.contents[0]).toMatchObject({ name: 'Lagos Marina', total: 6, online: 3, offline: 1, notC: 2 });
    const routers = (await a.get('/iotapp/assets/site-summary/?type=ROUTER&searchText=abuja')).json();
    expect(routers.contents).toEqual([expect.objectContaining({ name: 'Abuja Wuse', total: 1, online: 0, offline: 1, notC: 0 })]);
    const paged = (await a.get('/iotapp/assets/site-summary/?limit=1&page=3')).json();
    expect(paged.contents.map((r: { name: string }) => r.name)).toEqual(['No Location']);
    expect((await a.get('/iotapp/assets/site-summary/?limit=10001')).statusCode).toBe(400);
  });

  it('fills the site detailed summary', async () => {
    const res = (await a.get('/iotapp/assets/detailed-summary/?limit=5')).json();
    expect(res.contents.find((r: { name: string }) => r.name === 'Lagos Marina')).toMatchObject({
      siteId: 'LOS-1',
      routerStatus: 'Online',
      dvrCount: 1,
      dvrOffline: 0,
      cameraCount: 2,
      cameraVideoLoss: 1,
    });
    expect(res.contents.find((r: { name: string }) => r.name === 'Abuja Wuse')).toMatchObject({ routerStatus: 'Offline', dvrOffline: 1 });
    expect((await a.get('/iotapp/assets/detailed-summary/?limit=51')).statusCode).toBe(400);
    expect((await a.get('/iotapp/assets/detailed-summary/?limit=4')).statusCode).toBe(400);
  });

  it('gives the map its markers: located sites only, with the parent device status and first address level', async () => {
    const res = (await a.get('/iotapp/assets/map/')).json();
    expect(res.totalCount).toBe(2);
    expect(res.contents.map((m: { name: string; level1: string; status: string }) => [m.name, m.level1, m.status])).toEqual([
      ['Lagos Marina', 'Nigeria', 'Online'],
      ['Abuja Wuse', 'Nigeria', 'Offline'],
    ]);
    const byDvr = (await a.get('/iotapp/assets/map/?parentDevice=ALARMPANEL')).json();
    expect(byDvr.contents.every((m: { status: string | null }) => m.status === null)).toBe(true);
    const bogus = await a.get('/iotapp/assets/map/?parentDevice=BOGUS');
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().detail).toBe('Unknown device type: BOGUS');
    const counts = (await a.get(`/iotapp/assets/${estate[0]?.site.id}/device-counts/`)).json();
    expect(counts).toMatchObject({ name: 'Lagos Marina', total: 6, online: 3, offline: 1, notC: 2 });
    expect(counts.byType.find((x: { type: string }) => x.type === 'CAMERA')).toMatchObject({ total: 2, online: 1, offline: 1 });
  });
});

describe('customers', () => {
  it('lets administrators manage customers and their IoT framework credentials', async () => {
    const created = await admin.post('/iotapp/customers/', {
      name: 'Harbour Foods',
      email: 'ops@harbour.example',
      city: 'Lisbon',
      country: 'Portugal',
    });
    expect(created.statusCode).toBe(201);
    const customer = created.json();
    expect(customer).toMatchObject({ name: 'Harbour Foods', siteCount: 0, phone: null });
    expect((await admin.post('/iotapp/customers/', { name: 'harbour foods' })).statusCode).toBe(409);
    expect((await admin.post('/iotapp/customers/', { name: 'Bad mail', email: 'nope' })).statusCode).toBe(400);
    await makeSite(admin, { customerId: customer.id });
    const listed = (await admin.get('/iotapp/customers/?searchText=harbour')).json();
    expect(listed.contents[0]).toMatchObject({ id: customer.id, siteCount: 1 });
    expect((await admin.get(`/iotapp/assets/?customerId=${customer.id}`)).json().totalCount).toBe(1);
    expect((await admin.put(`/iotapp/customers/${customer.id}/`, { phone: '+351 21 000 0000' })).json().phone).toBe('+351 21 000 0000');

    const cred = (await admin.get(`/iotapp/customers/${customer.id}/iot-fw-cred/`)).json();
    expect(cred.mqttUrl).toMatch(/^mqtt:\/\//);
    expect(cred.httpUrl).toContain('/api/v1/{accessToken}/telemetry');
    expect(cred.provisionDeviceKey.length).toBeGreaterThan(10);
    expect(cred).toMatchObject({ provisionDeviceSecretSet: true });
    expect(cred.provisionDeviceSecret).toBeUndefined();
    // a regeneration answers its new secret once; every later answer says only that one is set
    const rotated = (await admin.post(`/iotapp/customers/${customer.id}/iot-fw-cred/rotate/`)).json();
    expect(rotated.provisionDeviceSecret).toMatch(/^[\w-]{32}$/);
    expect(rotated.provisionDeviceKey).toBe(cred.provisionDeviceKey);
    expect((await admin.get(`/iotapp/customers/${customer.id}/iot-fw-cred/`)).body).not.toContain(rotated.provisionDeviceSecret);
    // the tenant administrator's own key and secret
    const own = await admin.put(`/iotapp/customers/${customer.id}/iot-fw-cred/`, {
      provisionDeviceKey: 'harbour-gateways',
      provisionDeviceSecret: 'harbour-secret-0123456789',
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ provisionDeviceKey: 'harbour-gateways', provisionDeviceSecretSet: true });
    expect(own.body).not.toContain('harbour-secret-0123456789');
    const short = await admin.put(`/iotapp/customers/${customer.id}/iot-fw-cred/`, { provisionDeviceSecret: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().detail).toContain('at least 16 characters');
    expect((await admin.put(`/iotapp/customers/${customer.id}/iot-fw-cred/`, {})).statusCode).toBe(400);
    const entries = (await admin.get(`/iotapp/user-activity-logs/?objectType=customer&limit=50`)).json().contents as Array<{
      action: string;
    }>;
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['customer.iot-fw-cred.rotate', 'customer.iot-fw-cred.update']));
    expect(JSON.stringify(entries)).not.toContain('harbour-secret-0123456789');
    expect(JSON.stringify(entries)).not.toContain(rotated.provisionDeviceSecret);
    const taken = await (await t.login('customeradmin', HOST_B)).post('/iotapp/customers/', { name: 'Other harbour' });
    const other = await t.login('customeradmin', HOST_B);
    expect(
      (await other.put(`/iotapp/customers/${taken.json().id}/iot-fw-cred/`, { provisionDeviceKey: 'harbour-gateways' })).statusCode,
    ).toBe(409);

    const user = await t.login('customer');
    expect((await user.get('/iotapp/customers/')).statusCode).toBe(403);
    expect((await user.get(`/iotapp/customers/${customer.id}/iot-fw-cred/`)).statusCode).toBe(403);
    const otherAdmin = await t.login('customeradmin', HOST_B);
    expect((await otherAdmin.get(`/iotapp/customers/${customer.id}/`)).statusCode).toBe(404);
    expect((await otherAdmin.get(`/iotapp/customers/${customer.id}/iot-fw-cred/`)).statusCode).toBe(404);

    expect((await admin.delete(`/iotapp/customers/${customer.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/customers/${customer.id}/`)).statusCode).toBe(404);
  });
});
