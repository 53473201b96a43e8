import type { Equipment } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { equipmentInput } from './attendance-fixtures.ts';
import { raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

const clock = createTestClock();
let t: TestApp;
let admin: TestClient;
let field: TestClient;
let viewer: TestClient;
let site: { id: number; name: string };
let hidden: { id: number; name: string };
let genset: { id: number; label: string };
let elsewhere: { id: number; label: string };
let created: Equipment;

const inputOf = (e: Equipment, extra: Record<string, unknown> = {}) => {
  const { id: _id, siteName: _s, deviceLabel: _d, createdAt: _c, updatedAt: _u, ...input } = e;
  return { ...input, ...extra };
};
const day = (offsetDays: number) => new Date(clock.now().getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.login('customeradmin');
  field = await t.login('fieldexecutive');
  viewer = await t.login('customer');
  site = await makeSite(admin, { name: 'Equipment Yard' });
  hidden = await makeSite(admin, { name: 'Hidden Yard' });
  genset = await makeDevice(admin, { type: 'GENERATOR', assetId: site.id, label: 'DG-YARD' });
  elsewhere = await makeDevice(admin, { type: 'GENERATOR', assetId: hidden.id, label: 'DG-HIDDEN' });
  const assigned = await admin.post('/iotapp/user-assets/', { userId: await userId(t, t.tenantA, 'fieldexecutive'), assetIds: [site.id] });
  expect(assigned.statusCode, assigned.body).toBe(200);
});
afterAll(() => t?.close());

describe('equipment', () => {
  it('creates equipment linked to a device of the same site, and logs it', async () => {
    const res = await admin.post(
      '/api/equipment/',
      equipmentInput(site.id, { name: 'Main generator', serial: 'KG-0001', deviceId: genset.id, warrantyUntil: day(10) }),
    );
    expect(res.statusCode, res.body).toBe(201);
    created = res.json();
    expect(created).toMatchObject({
      assetId: site.id,
      siteName: 'Equipment Yard',
      name: 'Main generator',
      category: 'Generator',
      serial: 'KG-0001',
      installDate: '2024-01-15',
      warrantyUntil: day(10),
      deviceId: genset.id,
      deviceLabel: 'DG-YARD',
      status: 'ACTIVE',
    });
    const log = (await admin.get('/iotapp/user-activity-logs/?action=equipment.create')).json();
    expect(JSON.stringify(log)).toContain('KG-0001');
  });

  it('refuses a duplicate serial, a device of another site and bad values', async () => {
    const dup = await admin.post('/api/equipment/', equipmentInput(site.id, { serial: 'kg-0001' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe('Another equipment already has this serial number');
    const far = await admin.post('/api/equipment/', equipmentInput(site.id, { deviceId: elsewhere.id }));
    expect(far.statusCode).toBe(400);
    expect(far.json().detail).toBe('The linked device must be at the same site as the equipment');
    const ghost = await admin.post('/api/equipment/', equipmentInput(site.id, { deviceId: 999_999 }));
    expect(ghost.json().detail).toBe('Device not found');
    const noSite = await admin.post('/api/equipment/', equipmentInput(999_999));
    expect(noSite.json().detail).toBe('Site not found');
    const bad = await admin.post(
      '/api/equipment/',
      equipmentInput(site.id, { name: '', installDate: '2024-02-30', category: 'Spaceship' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Name is required');
    expect(bad.body).toContain('Enter a date as YYYY-MM-DD');
    const order = await admin.post('/api/equipment/', equipmentInput(site.id, { installDate: '2024-05-01', warrantyUntil: '2024-04-01' }));
    expect(order.body).toContain('Warranty end must not be before the install date');
    const long = await admin.post('/api/equipment/', equipmentInput(site.id, { serial: 'x'.repeat(81) }));
    expect(long.body).toContain('Please use maximum 80 characters');
  });

  it('lists with search, filters and pagination', async () => {
    for (const [i, category] of (['UPS', 'Battery', 'Camera'] as const).entries()) {
      const res = await admin.post(
        '/api/equipment/',
        equipmentInput(site.id, { name: `${category} unit`, category, serial: `SER-${i}`, warrantyUntil: day(-5 + i * 100) }),
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    await admin.post('/api/equipment/', equipmentInput(hidden.id, { name: 'Hidden UPS', category: 'UPS', serial: 'HID-1' }));
    const all = (await admin.get('/api/equipment/?limit=2')).json();
    expect(all.totalCount).toBe(5);
    expect(all.contents).toHaveLength(2);
    const page3 = (await admin.get('/api/equipment/?limit=2&page=3')).json();
    expect(page3.contents).toHaveLength(1);
    expect((await admin.get('/api/equipment/?search=ser-1')).json().contents.map((e: Equipment) => e.name)).toEqual(['Battery unit']);
    expect((await admin.get('/api/equipment/?search=Yard')).json().totalCount).toBe(5);
    expect((await admin.get('/api/equipment/?category=UPS')).json().totalCount).toBe(2);
    expect((await admin.get(`/api/equipment/?assetId=${hidden.id}`)).json().totalCount).toBe(1);
    expect((await admin.get('/api/equipment/?warranty=expired')).json().contents.map((e: Equipment) => e.serial)).toEqual(['SER-0']);
    expect((await admin.get('/api/equipment/?warranty=expiring')).json().contents.map((e: Equipment) => e.serial)).toEqual(['KG-0001']);
    expect((await admin.get(`/api/equipment/?deviceId=${genset.id}`)).json().totalCount).toBe(1);
    expect((await admin.get('/api/equipment/?status=BROKEN')).statusCode).toBe(400);
  });

  it('shows a per-site overview with warranties expiring soon', async () => {
    const res = await admin.get('/api/equipment/overview/');
    expect(res.statusCode, res.body).toBe(200);
    const yard = res.json().contents.find((c: { assetId: number }) => c.assetId === site.id);
    expect(yard).toMatchObject({ siteName: 'Equipment Yard', total: 4, active: 4, linked: 1, warrantyExpiringSoon: 1, warrantyExpired: 1 });
    expect(res.json().totals).toMatchObject({ total: 5, sites: 2 });
  });

  it('scopes reads to the sites a user sees', async () => {
    const list = (await field.get('/api/equipment/?limit=50')).json();
    expect(list.totalCount).toBe(4);
    const hiddenOne = (await admin.get(`/api/equipment/?assetId=${hidden.id}`)).json().contents[0] as Equipment;
    expect((await field.get(`/api/equipment/${hiddenOne.id}/`)).statusCode).toBe(404);
    expect((await field.get('/api/equipment/overview/')).json().totals.sites).toBe(1);
  });

  it('updates and records the change', async () => {
    const res = await admin.put(`/api/equipment/${created.id}/`, inputOf(created, { status: 'UNDER_MAINTENANCE', notes: 'Oil change' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'UNDER_MAINTENANCE', notes: 'Oil change', serial: 'KG-0001' });
    const log = (await admin.get('/iotapp/user-activity-logs/?action=equipment.update')).json();
    expect(JSON.stringify(log)).toContain('UNDER_MAINTENANCE');
    const dup = await admin.put(`/api/equipment/${created.id}/`, inputOf(created, { serial: 'SER-1' }));
    expect(dup.statusCode).toBe(409);
  });

  it('shows maintenance history: tickets on the linked device and tickets naming the serial', async () => {
    const onDevice = await raise(admin, { locationId: site.id, entityId: genset.id, title: 'Generator overheating' });
    const naming = await raise(admin, { locationId: site.id, title: 'Replace filter on KG-0001' });
    await raise(admin, { locationId: site.id, title: 'Unrelated door alarm' });
    const res = await admin.get(`/api/equipment/${created.id}/history/`);
    expect(res.statusCode, res.body).toBe(200);
    const contents = res.json().contents as Array<{ id: number; reason: string }>;
    expect(contents.map((c) => c.id).sort()).toEqual([onDevice.id, naming.id].sort());
    expect(contents.find((c) => c.id === onDevice.id)?.reason).toBe('device');
    expect(contents.find((c) => c.id === naming.id)?.reason).toBe('serial');
  });

  it('enforces the equipment permissions', async () => {
    expect((await field.get('/api/equipment/')).statusCode).toBe(200);
    expect((await field.post('/api/equipment/', equipmentInput(site.id))).statusCode).toBe(403);
    expect((await field.put(`/api/equipment/${created.id}/`, equipmentInput(site.id, { serial: 'KG-0001' }))).statusCode).toBe(403);
    expect((await field.delete(`/api/equipment/${created.id}/`)).statusCode).toBe(403);
    const none = await t.login('vendor');
    expect([200, 403]).toContain((await none.get('/api/equipment/')).statusCode);
    expect((await viewer.get('/api/equipment/')).statusCode).toBe(200);
  });

  it('keeps tenants apart', async () => {
    const foreign = await t.login('customeradmin', HOST_B);
    expect((await foreign.get(`/api/equipment/${created.id}/`)).statusCode).toBe(404);
    expect((await foreign.put(`/api/equipment/${created.id}/`, equipmentInput(site.id))).statusCode).toBe(404);
    expect((await foreign.delete(`/api/equipment/${created.id}/`)).statusCode).toBe(404);
    expect((await foreign.get('/api/equipment/')).json().totalCount).toBe(0);
  });

  it('deletes and logs the deletion', async () => {
    const res = await admin.delete(`/api/equipment/${created.id}/`);
    expect(res.statusCode).toBe(204);
    expect((await admin.get(`/api/equipment/${created.id}/`)).statusCode).toBe(404);
    const log = (await admin.get('/iotapp/user-activity-logs/?action=equipment.delete')).json();
    expect(JSON.stringify(log)).toContain('KG-0001');
  });
});
