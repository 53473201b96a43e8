import type { TestApp, TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';

/** Tenant-A vendors for the route-walking test. */

let sequence = 0;
const admins = new WeakMap<TestApp, Promise<TestClient>>();
const made = new WeakMap<TestApp, Promise<number>>();

export const vendorInput = (extra: Record<string, unknown> = {}) => ({
  company: `Fixture Vendor ${Date.now().toString(36)}${++sequence}`,
  contactPerson: 'Pat Vendor',
  email: 'pat@vendor.example.com',
  phone: '9876543210',
  address: '',
  notes: '',
  active: true,
  assetIds: [],
  issueTypeIds: [],
  userIds: [],
  ...extra,
});

const vendor: ObjectFixture = async (t) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  if (!made.has(t))
    made.set(
      t,
      (async () => {
        const admin = (await admins.get(t)) as TestClient;
        const res = await admin.post('/iotapp/vendors/', vendorInput());
        if (res.statusCode !== 201) throw new Error(`vendor fixture: ${res.statusCode} ${res.body}`);
        return res.json().id as number;
      })(),
    );
  return { params: { id: await (made.get(t) as Promise<number>) }, payload: vendorInput() };
};

export const vendorsObjectRoutes: Record<string, ObjectFixture> = {
  'GET /iotapp/vendors/:id/': vendor,
  'PUT /iotapp/vendors/:id/': vendor,
  'DELETE /iotapp/vendors/:id/': vendor,
  'GET /iotapp/vendors/:id/tickets/': vendor,
};
