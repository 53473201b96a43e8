import type { TestApp, TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';
import { makeDevice, makeEstateSite, makeSite, userId } from './support/sites-factory.ts';

/** Tenant-A objects for the route-walking test: sites, customers, devices, templates, mappings, users, groups. */

const admins = new WeakMap<TestApp, Promise<TestClient>>();
const adminOf = (t: TestApp) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  return admins.get(t) as Promise<TestClient>;
};

const site: ObjectFixture = async (t) => ({ params: { id: (await makeSite(await adminOf(t))).id }, payload: { name: 'renamed by B' } });
const customer: ObjectFixture = async (t) => {
  const res = await (await adminOf(t)).post('/iotapp/customers/', { name: `Fixture customer ${Math.random()}` });
  return { params: { id: res.json().id }, payload: { name: 'renamed by B' } };
};
const device: ObjectFixture = async (t) => {
  const admin = await adminOf(t);
  const s = await makeSite(admin);
  return { params: { id: (await makeDevice(admin, { type: 'ROUTER', assetId: s.id })).id }, payload: { label: 'renamed-by-B' } };
};
const discovered: ObjectFixture = async (t) => {
  const admin = await adminOf(t);
  const d = await makeDevice(admin, { type: 'SENSOR' });
  await t.db.updateTable('devices').set({ discovered: true }).where('id', '=', d.id).execute();
  return { params: { id: d.id }, payload: {} };
};
const template: ObjectFixture = async (t) => {
  const res = await (await adminOf(t)).post('/iotapp/device-templates/', { name: `Fixture ${Math.random()}`, type: 'UPS', vendor: 'APC' });
  return { params: { id: res.json().id }, payload: { name: 'renamed by B' } };
};

export const sitesObjectRoutes: Record<string, ObjectFixture> = {
  'GET /iotapp/assets/:id/': site,
  'PUT /iotapp/assets/:id/': site,
  'DELETE /iotapp/assets/:id/': site,
  'GET /iotapp/assets/:id/device-counts/': site,
  'GET /iotapp/customers/:id/': customer,
  'PUT /iotapp/customers/:id/': customer,
  'DELETE /iotapp/customers/:id/': customer,
  'GET /iotapp/customers/:id/iot-fw-cred/': customer,
  'POST /iotapp/customers/:id/iot-fw-cred/rotate/': customer,
  'PUT /iotapp/customers/:id/iot-fw-cred/': async (t) => ({
    params: (await customer(t)).params,
    payload: { provisionDeviceSecret: 'secret-set-by-another-tenant' },
  }),
  'GET /iotapp/devices/:id/': device,
  'POST /iotapp/devices/:id/access-token/': device,
  'PUT /iotapp/devices/:id/': device,
  'DELETE /iotapp/devices/:id/': device,
  'POST /iotapp/devices/:id/add-to-inventory/': discovered,
  'GET /iotapp/devices/:id/alarm-actions/': device,
  'POST /iotapp/devices/:id/alarm-actions/': async (t) => ({
    params: (await device(t)).params,
    payload: { telemetryKey: 'maintenance', telemetryValue: true, updateChildDevice: true },
  }),
  'GET /iotapp/device-templates/:id/': template,
  'PUT /iotapp/device-templates/:id/': template,
  'DELETE /iotapp/device-templates/:id/': template,
  'DELETE /iotapp/entity-mappings/:id/': async (t) => {
    const admin = await adminOf(t);
    const e = await makeEstateSite(admin);
    const res = await admin.post('/iotapp/entity-mappings/', {
      relationType: 'CAMERA MAPPING',
      fromType: 'ASSET',
      fromEntity: e.site.id,
      toType: 'DEVICE',
      toEntity: e.cam1.id,
    });
    return { params: { id: res.json().id } };
  },
  'GET /iotapp/users/:id/': async (t) => ({ params: { id: await userId(await adminOf(t), 'fieldexecutive') } }),
  'DELETE /iotapp/user-assets/:id/': async (t) => {
    const admin = await adminOf(t);
    const fe = await userId(admin, 'fieldexecutive');
    const s = await makeSite(admin);
    await admin.post('/iotapp/user-assets/', { userId: fe, assetIds: [s.id] });
    const link = (await admin.get(`/iotapp/user-assets/?userId=${fe}&searchText=${encodeURIComponent(s.name)}`)).json().contents[0];
    return { params: { id: link.id } };
  },
  'PUT /iotapp/groups/:id/device-permissions/': async (t) => {
    const groups = (await (await adminOf(t)).get('/iotapp/groups/')).json();
    return { params: { id: groups.contents[0].id }, payload: { codenames: [] } };
  },
};
