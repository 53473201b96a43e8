import type { TestApp, TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';

/** Tenant-A objects of the field staff directories and clusters for the route-walking test. */

const admins = new WeakMap<TestApp, Promise<TestClient>>();
const adminOf = (t: TestApp) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  return admins.get(t) as Promise<TestClient>;
};

function once(make: ObjectFixture): ObjectFixture {
  const made = new WeakMap<TestApp, ReturnType<ObjectFixture>>();
  return (t) => {
    if (!made.has(t)) made.set(t, make(t));
    return made.get(t) as ReturnType<ObjectFixture>;
  };
}

let sequence = 0;
const staffInput = () => {
  const n = `${Date.now().toString(36)}${++sequence}`;
  return {
    username: `staff${n}`,
    email: `staff${n}@demo.example.com`,
    firstname: 'Staff',
    lastname: 'Fixture',
    mobile: null,
    groupId: null,
    assetIds: [],
    notificationConfig: { popup: true },
    fieldProfile: { employeeCode: `FX-${n}`, designation: null, area: 'North', territory: null, joinedOn: null, notes: null },
  };
};

const person: ObjectFixture = once(async (t) => {
  const res = await (await adminOf(t)).post('/iotapp/field-staff/', { ...staffInput(), role: 'fieldexecutive' });
  return { params: { id: res.json().id }, payload: staffInput() };
});

const cluster: ObjectFixture = once(async (t) => {
  const res = await (await adminOf(t)).post('/iotapp/clusters/', { name: `Fixture cluster ${Date.now()}${++sequence}`, assetIds: [] });
  return { params: { id: res.json().id }, payload: { name: 'renamed by B', assetIds: [] } };
});

export const directoriesObjectRoutes: Record<string, ObjectFixture> = {
  'GET /iotapp/field-staff/:id/': person,
  'PUT /iotapp/field-staff/:id/': person,
  'DELETE /iotapp/field-staff/:id/': person,
  'GET /iotapp/field-staff/:id/tickets/': person,
  'GET /iotapp/clusters/:id/': cluster,
  'PUT /iotapp/clusters/:id/': cluster,
  'DELETE /iotapp/clusters/:id/': cluster,
};
