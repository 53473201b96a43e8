import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeSite, userId } from './support/sites-factory.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

describe('/iotapp/users/', () => {
  it('lists the users of the tenant by ids, role and search, with paging', async () => {
    const all = (await admin.get('/iotapp/users/?limit=100')).json();
    expect(all.totalCount).toBe(11);
    expect(all.contents[0]).toHaveProperty('groups');
    const fe = await userId(admin, 'fieldexecutive');
    const sm = await userId(admin, 'storemanager');
    const byIds = (await admin.get(`/iotapp/users/?ids=${fe},${sm}&orderBy=username`)).json();
    expect(byIds.contents.map((u: { username: string }) => u.username)).toEqual(['fieldexecutive', 'storemanager']);
    const byRole = (await admin.get('/iotapp/users/?role=vendor')).json();
    expect(byRole.contents.map((u: { userRole: string[] }) => u.userRole)).toEqual([['vendor']]);
    const paged = (await admin.get('/iotapp/users/?limit=5&page=3&orderBy=username')).json();
    expect(paged.contents).toHaveLength(1);
    expect((await admin.get(`/iotapp/users/${fe}/`)).json()).toMatchObject({
      id: fe,
      username: 'fieldexecutive',
      userRole: ['fieldexecutive'],
    });
    expect((await admin.get('/iotapp/users/?role=king')).statusCode).toBe(400);
    expect((await admin.get('/iotapp/users/?team=a')).statusCode).toBe(400);
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.get(`/iotapp/users/${fe}/`)).statusCode).toBe(404);
    expect((await other.get(`/iotapp/users/?ids=${fe}`)).json().totalCount).toBe(0);
  });
});

describe('/iotapp/user-assets/', () => {
  it('assigns sites by id or by address, lists and removes them', async () => {
    const fe = await userId(admin, 'fieldexecutive');
    const s1 = await makeSite(admin, { name: 'Chennai T Nagar', address: ['India', 'Tamil Nadu', 'Chennai'] });
    const s2 = await makeSite(admin, { name: 'Chennai Adyar', address: ['India', 'Tamil Nadu', 'Chennai'] });
    const s3 = await makeSite(admin, { name: 'Madurai East', address: ['India', 'Tamil Nadu', 'Madurai'] });
    expect((await admin.post('/iotapp/user-assets/', { userId: fe, assetIds: [s1.id] })).json()).toEqual({ assigned: 1 });
    expect((await admin.post('/iotapp/user-assets/', { userId: fe, assetIds: [s1.id] })).json()).toEqual({ assigned: 0 });
    expect((await admin.post('/iotapp/user-assets/', { userId: fe, address: ['India', 'Tamil Nadu'] })).json()).toEqual({ assigned: 2 });
    const list = (await admin.get(`/iotapp/user-assets/?userId=${fe}`)).json();
    expect(list.contents.map((l: { asset: { name: string } }) => l.asset.name)).toEqual([
      'Chennai Adyar',
      'Chennai T Nagar',
      'Madurai East',
    ]);
    expect(list.contents[0]).toMatchObject({ userId: fe, assetId: s2.id, asset: { address: ['India', 'Tamil Nadu', 'Chennai'] } });

    const feClient = await t.login('fieldexecutive');
    expect((await feClient.get(`/iotapp/user-assets/?userId=${fe}&searchText=madurai`)).json().totalCount).toBe(1);
    const sm = await userId(admin, 'storemanager');
    expect((await feClient.get(`/iotapp/user-assets/?userId=${sm}`)).statusCode).toBe(403);
    expect((await feClient.post('/iotapp/user-assets/', { userId: fe, assetIds: [s3.id] })).statusCode).toBe(403);

    expect((await admin.post('/iotapp/user-assets/remove/', { userId: fe, assetIds: [s1.id, s2.id] })).json()).toEqual({ removed: 2 });
    const link = (await admin.get(`/iotapp/user-assets/?userId=${fe}`)).json().contents[0];
    expect((await admin.delete(`/iotapp/user-assets/${link.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/user-assets/?userId=${fe}`)).json().totalCount).toBe(0);
    expect((await admin.post('/iotapp/user-assets/', { userId: fe, assetIds: [] })).statusCode).toBe(400);
    expect((await admin.get('/iotapp/user-assets/')).statusCode).toBe(400);
  });

  it("never links another tenant's sites or users", async () => {
    const site = await makeSite(admin);
    const other = await t.login('customeradmin', HOST_B);
    const otherFe = await userId(other, 'fieldexecutive');
    expect((await other.post('/iotapp/user-assets/', { userId: otherFe, assetIds: [site.id] })).json()).toEqual({ assigned: 0 });
    const fe = await userId(admin, 'fieldexecutive');
    expect((await other.post('/iotapp/user-assets/', { userId: fe, assetIds: [site.id] })).statusCode).toBe(404);
    expect((await other.get(`/iotapp/user-assets/?userId=${fe}`)).statusCode).toBe(404);
    await admin.post('/iotapp/user-assets/', { userId: fe, assetIds: [site.id] });
    const link = (await admin.get(`/iotapp/user-assets/?userId=${fe}`)).json().contents[0];
    expect((await other.delete(`/iotapp/user-assets/${link.id}/`)).statusCode).toBe(404);
  });
});

describe('device permissions per group', () => {
  it('lets administrators grant and revoke device codenames, taking effect at once', async () => {
    const groups = (await admin.get('/iotapp/groups/')).json();
    const operators = groups.contents.find((g: { name: string }) => g.name === 'Operators');
    expect(operators.userCount).toBeGreaterThan(0);
    const fe = await t.login('fieldexecutive');
    expect((await fe.post('/iotapp/assets/', { name: 'By operator', address: ['X'] })).statusCode).toBe(403);
    const granted = await admin.put(`/iotapp/groups/${operators.id}/device-permissions/`, {
      codenames: ['view_device', 'view_asset', 'add_asset', 'edit_alarm_config'],
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const codes = granted.json().permissions.map((p: { codename: string }) => p.codename);
    // Ticket permissions stay; device and asset ones are replaced.
    expect(codes).toEqual(expect.arrayContaining(['add_ticket', 'change_ticket', 'add_asset', 'edit_alarm_config']));
    expect(codes).not.toContain('change_device');
    const again = await t.login('fieldexecutive');
    expect((await again.post('/iotapp/assets/', { name: 'By operator', address: ['X'] })).statusCode).toBe(201);
    expect((await admin.put(`/iotapp/groups/${operators.id}/device-permissions/`, { codenames: ['launch_rockets'] })).statusCode).toBe(400);
    expect((await fe.get('/iotapp/groups/')).statusCode).toBe(403);
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.put(`/iotapp/groups/${operators.id}/device-permissions/`, { codenames: [] })).statusCode).toBe(404);
  });
});
