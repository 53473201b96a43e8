import type { Item, Store } from '@sitewatch/contracts';
import { expect } from 'vitest';
import type { TestApp, TestClient } from './support/harness.ts';

/** Factories of the inventory tests: stores, items and stock through the inventory's own endpoints. */

let seq = 0;

export async function makeStore(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/iotapp/inventory/stores/', { name: `Store ${++seq}-${Date.now()}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Store;
}

export async function makeItem(client: TestClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/iotapp/inventory/items/', {
    code: `ITM-${++seq}-${Date.now()}`,
    name: `Spare ${seq}`,
    category: 'Spares',
    tracking: 'QUANTITY',
    lowStockThreshold: 0,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Item;
}

export async function move(client: TestClient, body: Record<string, unknown>) {
  return client.post('/iotapp/inventory/movements/', body);
}

export async function receive(client: TestClient, itemId: number, storeId: number, quantity: number) {
  const res = await move(client, { kind: 'RECEIVE', itemId, storeId, quantity });
  expect(res.statusCode, res.body).toBe(201);
}

/** A store and a stocked item of tenant A (for the route-walking security test). */
async function tenantAStock(t: TestApp) {
  const admin = await t.login('customeradmin');
  const store = await makeStore(admin);
  const item = await makeItem(admin);
  await receive(admin, item.id, store.id, 5);
  return { admin, store, item };
}

type Fixture = (t: TestApp) => Promise<{ params: Record<string, string | number>; payload?: unknown }>;

/** Every inventory route that names an object, with a tenant-A object for it (see support/object-routes.ts). */
export const inventoryObjectRoutes: Record<string, Fixture> = {
  'GET /iotapp/inventory/stores/:id/': async (t) => ({ params: { id: (await tenantAStock(t)).store.id } }),
  'PUT /iotapp/inventory/stores/:id/': async (t) => ({ params: { id: (await tenantAStock(t)).store.id }, payload: { name: 'Taken over' } }),
  'DELETE /iotapp/inventory/stores/:id/': async (t) => ({ params: { id: (await tenantAStock(t)).store.id } }),
  'GET /iotapp/inventory/items/:id/': async (t) => ({ params: { id: (await tenantAStock(t)).item.id } }),
  'PUT /iotapp/inventory/items/:id/': async (t) => ({
    params: { id: (await tenantAStock(t)).item.id },
    payload: { code: 'TAKEN', name: 'Taken over', lowStockThreshold: 0 },
  }),
  'DELETE /iotapp/inventory/items/:id/': async (t) => ({ params: { id: (await makeItem(await t.login('customeradmin'))).id } }),
};
