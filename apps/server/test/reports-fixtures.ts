import { expect } from 'vitest';
import { makeItem, makeStore } from './inventory-fixtures.ts';
import type { TestApp } from './support/harness.ts';

type Fixture = (t: TestApp) => Promise<{ params: Record<string, string | number>; payload?: unknown }>;

/** A purchase request of tenant A and a valid body for it. */
async function tenantARequest(t: TestApp) {
  const admin = await t.login('customeradmin');
  const store = await makeStore(admin);
  const item = await makeItem(admin);
  const body = { title: 'Tenant A request', storeId: store.id, lines: [{ itemId: item.id, quantity: 1, unitCost: 1 }] };
  const res = await admin.post('/iotapp/purchase-requests/', body);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as number, body };
}

async function tenantASchedule(t: TestApp) {
  const admin = await t.login('customeradmin');
  const res = await admin.post('/iotapp/report-schedules/', {
    kind: 'inventory-stock',
    name: 'Tenant A schedule',
    frequency: 'DAILY',
    time: '06:00',
    format: 'csv',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

/** Every purchase request and report schedule route that names an object (see support/object-routes.ts). */
export const reportsObjectRoutes: Record<string, Fixture> = {
  'GET /iotapp/purchase-requests/:id/': async (t) => ({ params: { id: (await tenantARequest(t)).id } }),
  'PUT /iotapp/purchase-requests/:id/': async (t) => {
    const { id, body } = await tenantARequest(t);
    return { params: { id }, payload: body };
  },
  'POST /iotapp/purchase-requests/:id/actions/': async (t) => ({
    params: { id: (await tenantARequest(t)).id },
    payload: { action: 'cancel', reason: 'Taken over' },
  }),
  'DELETE /iotapp/report-schedules/:id/': async (t) => ({ params: { id: await tenantASchedule(t) } }),
};
