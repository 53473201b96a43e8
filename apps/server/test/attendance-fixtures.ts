import type { TestApp, TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';
import { makeSite } from './support/sites-factory.ts';

/** Tenant-A attendance records and equipment for the route-walking test. */

let sequence = 0;
const admins = new WeakMap<TestApp, Promise<TestClient>>();
const records = new WeakMap<TestApp, Promise<number>>();
const items = new WeakMap<TestApp, Promise<{ id: number; assetId: number }>>();

const adminOf = (t: TestApp) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  return admins.get(t) as Promise<TestClient>;
};

export const equipmentInput = (assetId: number, extra: Record<string, unknown> = {}) => ({
  assetId,
  name: 'Fixture generator',
  category: 'Generator',
  make: 'Kirloskar',
  model: 'KG1-62.5',
  serial: `FX-${Date.now().toString(36)}-${++sequence}`,
  installDate: '2024-01-15',
  warrantyUntil: '2027-01-14',
  deviceId: null,
  notes: '',
  status: 'ACTIVE',
  ...extra,
});

const record: ObjectFixture = async (t) => {
  if (!records.has(t))
    records.set(
      t,
      (async () => {
        const admin = await adminOf(t);
        const site = await makeSite(admin, { latitude: 12.97, longitude: 77.59 });
        await admin.post('/api/attendance/check-out/', { latitude: 12.97, longitude: 77.59 });
        const res = await admin.post('/api/attendance/check-in/', { assetId: site.id, latitude: 12.97, longitude: 77.59 });
        if (res.statusCode !== 201) throw new Error(`attendance fixture: ${res.statusCode} ${res.body}`);
        return res.json().id as number;
      })(),
    );
  return { params: { id: await (records.get(t) as Promise<number>) } };
};

const equipment: ObjectFixture = async (t) => {
  if (!items.has(t))
    items.set(
      t,
      (async () => {
        const admin = await adminOf(t);
        const site = await makeSite(admin);
        const res = await admin.post('/api/equipment/', equipmentInput(site.id));
        if (res.statusCode !== 201) throw new Error(`equipment fixture: ${res.statusCode} ${res.body}`);
        return { id: res.json().id as number, assetId: site.id };
      })(),
    );
  const made = await (items.get(t) as Promise<{ id: number; assetId: number }>);
  return { params: { id: made.id }, payload: equipmentInput(made.assetId) };
};

export const fieldWorkObjectRoutes: Record<string, ObjectFixture> = {
  'GET /api/attendance/:id/': record,
  'GET /api/attendance/:id/snapshot/': record,
  'GET /api/attendance/:id/photo/': record,
  'GET /api/equipment/:id/': equipment,
  'PUT /api/equipment/:id/': equipment,
  'DELETE /api/equipment/:id/': equipment,
  'GET /api/equipment/:id/history/': equipment,
};
