import type { ItemDetail, Movement, StockRow, Store } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { history, makeDevice, makeSite, raise, userId } from './helpdesk-fixtures.ts';
import { makeItem, makeStore, move, receive } from './inventory-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let manager: TestClient;
let viewer: TestClient;
let managerId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  manager = await t.login('storemanager');
  viewer = await t.login('customer');
  managerId = await userId(t, t.tenantA, 'storemanager');
});
afterAll(async () => t.close());

const stockOf = async (client: TestClient, query: string) => {
  const res = await client.get(`/iotapp/inventory/stock/?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { contents: StockRow[]; totalCount: number };
};
const onHand = async (itemId: number, storeId: number) => t.handles.inventory.ledgerOnHand(t.tenantA, itemId, storeId);
const detail = async (client: TestClient, id: number) => {
  const res = await client.get(`/iotapp/inventory/items/${id}/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ItemDetail;
};
const activity = async (action: string) =>
  (
    await t.db
      .selectFrom('user_activity_logs')
      .select(['action', 'object_id'])
      .where('tenant_id', '=', t.tenantA)
      .where('action', '=', action)
      .execute()
  ).length;

describe('permissions', () => {
  it('lets the inventory permissions decide: a viewer without them is refused, the store manager is not', async () => {
    expect((await viewer.get('/iotapp/inventory/stores/')).statusCode).toBe(403);
    expect((await viewer.get('/iotapp/inventory/stock/')).statusCode).toBe(403);
    expect((await viewer.post('/iotapp/inventory/items/', { code: 'X1', name: 'X', tracking: 'QUANTITY' })).statusCode).toBe(403);
    expect((await manager.get('/iotapp/inventory/stores/')).statusCode).toBe(200);
    expect((await manager.get('/iotapp/inventory/items/')).statusCode).toBe(200);
    expect((await manager.get('/iotapp/inventory/categories/')).statusCode).toBe(200);
    expect((await manager.get('/iotapp/inventory/movements/')).statusCode).toBe(200);
    const managers = (await admin.get('/iotapp/inventory/store-managers/')).json();
    expect(managers.contents.map((m: { id: number }) => m.id)).toContain(managerId);
  });

  it('has the inventory permissions in the catalogue under its own area', async () => {
    const res = await admin.get('/iotapp/permissions/');
    const inventory = res.json().contents.filter((p: { area: string }) => p.area === 'Inventory');
    expect(inventory.map((p: { codename: string }) => p.codename).sort()).toEqual([
      'add_inventory',
      'change_inventory',
      'delete_inventory',
      'view_inventory',
    ]);
  });
});

describe('stores', () => {
  it('creates, reads, changes and deletes a store with its managers, writing the activity log', async () => {
    const store = await makeStore(admin, { name: 'North depot', managerIds: [managerId] });
    expect(store.managers.map((m) => m.id)).toEqual([managerId]);
    expect((await admin.get(`/iotapp/inventory/stores/${store.id}/`)).json().name).toBe('North depot');
    const dup = await admin.post('/iotapp/inventory/stores/', { name: 'north DEPOT' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe('A store with this name already exists');
    const updated = await admin.put(`/iotapp/inventory/stores/${store.id}/`, { name: 'North depot 2', managerIds: [] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().managers).toEqual([]);
    expect((await admin.delete(`/iotapp/inventory/stores/${store.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/inventory/stores/${store.id}/`)).statusCode).toBe(404);
    expect(await activity('inventory-store.create')).toBeGreaterThan(0);
    expect(await activity('inventory-store.update')).toBeGreaterThan(0);
    expect(await activity('inventory-store.delete')).toBeGreaterThan(0);
  });

  it('refuses managers who are not store managers, and names that are empty or too long, with clear messages', async () => {
    const other = await userId(t, t.tenantA, 'fieldexecutive');
    const res = await admin.post('/iotapp/inventory/stores/', { name: 'Bad managers', managerIds: [other] });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Store managers must be users with the Store Manager role');
    const otherTenant = await userId(t, t.tenantB, 'storemanager');
    expect((await admin.post('/iotapp/inventory/stores/', { name: 'Foreign', managerIds: [otherTenant] })).statusCode).toBe(400);
    const empty = await admin.post('/iotapp/inventory/stores/', { name: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Name is required');
    const long = await admin.post('/iotapp/inventory/stores/', { name: 'x'.repeat(121) });
    expect(long.body).toContain('Please use maximum 120 characters');
  });

  it('answers 409, never 500, when two saves take the same name at once', async () => {
    const name = `Twin ${Date.now()}`;
    const codes = (await Promise.all([0, 1, 2].map(() => admin.post('/iotapp/inventory/stores/', { name }))))
      .map((r) => r.statusCode)
      .sort();
    expect(codes).toEqual([201, 409, 409]);
    const code = `TWIN-${Date.now()}`;
    const items = await Promise.all([0, 1].map(() => admin.post('/iotapp/inventory/items/', { code, name: 'Twin', tracking: 'SERIAL' })));
    expect(items.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const item = items.find((r) => r.statusCode === 201)?.json() as { id: number };
    const store = await makeStore(admin);
    const serials = await Promise.all(
      [0, 1].map(() => move(admin, { kind: 'RECEIVE', itemId: item.id, storeId: store.id, serials: ['TW-1'] })),
    );
    expect(serials.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await onHand(item.id, store.id)).toBe(1);
  });

  it('refuses to delete a store with movements', async () => {
    const store = await makeStore(admin);
    const item = await makeItem(admin);
    await receive(admin, item.id, store.id, 1);
    const res = await admin.delete(`/iotapp/inventory/stores/${store.id}/`);
    expect(res.statusCode).toBe(409);
  });
});

describe('items', () => {
  it('creates, lists, finds by code, changes and deletes items; codes are unique per tenant', async () => {
    const item = await makeItem(admin, { code: 'UPS-BAT-T1', name: 'UPS battery', category: 'Batteries', lowStockThreshold: 3 });
    expect(item.onHand).toBe(0);
    const dup = await admin.post('/iotapp/inventory/items/', { code: 'ups-bat-t1', name: 'Again', tracking: 'QUANTITY' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().detail).toBe('An item with this code already exists');
    const b = await t.login('customeradmin', HOST_B);
    expect((await b.post('/iotapp/inventory/items/', { code: 'UPS-BAT-T1', name: 'Other tenant', tracking: 'QUANTITY' })).statusCode).toBe(
      201,
    );
    const found = (await manager.get('/iotapp/inventory/items/?code=ups-bat-t1')).json();
    expect(found.contents.map((i: { id: number }) => i.id)).toEqual([item.id]);
    const search = (await manager.get('/iotapp/inventory/items/?search=UPS%20batt')).json();
    expect(search.totalCount).toBeGreaterThan(0);
    expect((await manager.get('/iotapp/inventory/categories/')).json().contents).toContain('Batteries');
    const put = await admin.put(`/iotapp/inventory/items/${item.id}/`, {
      code: 'UPS-BAT-T1',
      name: 'UPS battery 12V',
      lowStockThreshold: 4,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().lowStockThreshold).toBe(4);
    expect((await admin.delete(`/iotapp/inventory/items/${item.id}/`)).statusCode).toBe(204);
    expect((await admin.get(`/iotapp/inventory/items/${item.id}/`)).statusCode).toBe(404);
    expect(await activity('inventory-item.update')).toBeGreaterThan(0);
  });

  it('validates codes and thresholds with clear messages', async () => {
    const bad = await admin.post('/iotapp/inventory/items/', { code: 'has space', name: 'X', tracking: 'QUANTITY' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Use letters, digits and . _ / - only in a code');
    const neg = await admin.post('/iotapp/inventory/items/', { code: 'NEG', name: 'X', tracking: 'QUANTITY', lowStockThreshold: -1 });
    expect(neg.body).toContain('Enter a threshold of 0 or more');
    const tracking = await admin.post('/iotapp/inventory/items/', { code: 'TRK', name: 'X', tracking: 'BOTH' });
    expect(tracking.body).toContain('Choose serial or quantity tracking');
  });
});

describe('stock movements by quantity', () => {
  it('receives, transfers, issues to a ticket, returns and writes off; on hand is the sum of the ledger', async () => {
    const a = await makeStore(admin);
    const b = await makeStore(admin);
    const item = await makeItem(admin, { unit: 'pcs' });
    const ticket = await raise(manager, { title: 'Battery swap' });
    await receive(manager, item.id, a.id, 10);
    const answered: Movement[][] = [];
    let res = await move(manager, { kind: 'TRANSFER', itemId: item.id, storeId: a.id, toStoreId: b.id, quantity: 4 });
    expect(res.statusCode, res.body).toBe(201);
    answered.unshift(res.json().movements);
    res = await move(manager, { kind: 'ISSUE', itemId: item.id, storeId: b.id, ticketId: ticket.id, quantity: 3, note: 'Site visit' });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json().movements as Movement[])[0]?.ticketId).toBe(ticket.id);
    answered.unshift(res.json().movements);
    res = await move(manager, { kind: 'RETURN', itemId: item.id, storeId: b.id, ticketId: ticket.id, quantity: 1 });
    expect(res.statusCode, res.body).toBe(201);
    answered.unshift(res.json().movements);
    res = await move(manager, { kind: 'RETURN', itemId: item.id, storeId: b.id, ticketId: ticket.id, quantity: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('Only 2 can be returned from this ticket');
    res = await move(admin, { kind: 'WRITE_OFF', itemId: item.id, storeId: a.id, quantity: 1, note: 'Dropped' });
    expect(res.statusCode, res.body).toBe(201);
    answered.unshift(res.json().movements);
    expect(await onHand(item.id, a.id)).toBe(5);
    expect(await onHand(item.id, b.id)).toBe(2);
    const rows = (await stockOf(manager, `search=${encodeURIComponent(item.code)}`)).contents;
    expect(rows.map((r) => [r.storeId, r.onHand]).sort()).toEqual(
      [
        [a.id, 5],
        [b.id, 2],
      ].sort(),
    );
    expect((await detail(manager, item.id)).item.onHand).toBe(7);
    const ledger = (await manager.get(`/iotapp/inventory/movements/?itemId=${item.id}`)).json();
    expect(ledger.totalCount).toBe(5);
    expect(ledger.contents.map((m: Movement) => m.kind)).toEqual(['WRITE_OFF', 'RETURN', 'ISSUE', 'TRANSFER', 'RECEIVE']);
    // A move answers its movements as the ledger lists them.
    expect(ledger.contents.slice(0, 4)).toEqual(answered.flat());
    const lines = await history(admin, ticket.id);
    expect(lines.some((l) => l.action === 'spares' && l.note?.includes('Issued 3 pcs'))).toBe(true);
    expect(lines.some((l) => l.note?.includes('Returned 1 pcs'))).toBe(true);
    expect(await activity('inventory.issue')).toBeGreaterThan(0);
    expect(await t.handles.inventory.balanceMismatches(t.tenantA)).toEqual([]);
  });

  it('refuses moves that would make stock negative, with a clear message, and writes nothing', async () => {
    const a = await makeStore(admin, { name: `Small store ${Date.now()}` });
    const item = await makeItem(admin, { unit: 'litre' });
    await receive(admin, item.id, a.id, 2);
    const res = await move(admin, { kind: 'WRITE_OFF', itemId: item.id, storeId: a.id, quantity: 3, note: 'Leak' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`Not enough stock: ${a.name} holds 2 litre`);
    expect(await onHand(item.id, a.id)).toBe(2);
    expect((await admin.get(`/iotapp/inventory/movements/?itemId=${item.id}`)).json().totalCount).toBe(1);
  });

  it('checks each kind: quantity vs serials, the ticket, the target store and the write-off reason', async () => {
    const a = await makeStore(admin);
    const item = await makeItem(admin);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'RECEIVE', itemId: item.id, storeId: a.id }, 'Enter a quantity'],
      [{ kind: 'RECEIVE', itemId: item.id, storeId: a.id, quantity: 1, serials: ['S1'] }, 'A quantity-tracked item has no serial numbers'],
      [{ kind: 'ISSUE', itemId: item.id, storeId: a.id, quantity: 1 }, 'Choose a ticket'],
      [{ kind: 'TRANSFER', itemId: item.id, storeId: a.id, toStoreId: a.id, quantity: 1 }, 'Choose two different stores'],
      [{ kind: 'WRITE_OFF', itemId: item.id, storeId: a.id, quantity: 1 }, 'Give a reason for the write-off'],
    ];
    for (const [body, message] of cases) {
      const res = await move(admin, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().detail).toBe(message);
    }
    const zero = await move(admin, { kind: 'RECEIVE', itemId: item.id, storeId: a.id, quantity: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.body).toContain('Enter a quantity of at least 1');
  });

  it('issues only to a ticket the user may see', async () => {
    const a = await makeStore(admin);
    const item = await makeItem(admin);
    await receive(admin, item.id, a.id, 3);
    const b = await t.login('customeradmin', HOST_B);
    const foreign = await raise(b, { title: 'Other tenant' });
    const res = await move(admin, { kind: 'ISSUE', itemId: item.id, storeId: a.id, ticketId: foreign.id, quantity: 1 });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Ticket not found.');
    expect(await onHand(item.id, a.id)).toBe(3);
  });

  it('refuses by permission: a move out needs change, a write-off needs delete', async () => {
    const a = await makeStore(admin);
    const item = await makeItem(admin);
    expect((await move(viewer, { kind: 'RECEIVE', itemId: item.id, storeId: a.id, quantity: 1 })).statusCode).toBe(403);
  });

  it('never oversells under concurrent moves', async () => {
    const a = await makeStore(admin);
    const b = await makeStore(admin);
    const item = await makeItem(admin);
    await receive(admin, item.id, a.id, 5);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => move(manager, { kind: 'TRANSFER', itemId: item.id, storeId: a.id, toStoreId: b.id, quantity: 1 })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(7);
    expect(await onHand(item.id, a.id)).toBe(0);
    expect(await onHand(item.id, b.id)).toBe(5);
    expect(await t.handles.inventory.balanceMismatches(t.tenantA)).toEqual([]);
  });

  it("tells the screens through push: a movement emits inventory.moved per store, with the store's site", async () => {
    const site = await makeSite(admin);
    const a = await makeStore(admin, { assetId: site.id });
    const b = await makeStore(admin);
    const item = await makeItem(admin);
    const seen: Array<{ type: string; payload: unknown }> = [];
    const stop = t.handles.events.subscribe((e) => {
      if (e.type.startsWith('inventory.')) seen.push({ type: e.type, payload: e.payload });
    });
    try {
      await receive(admin, item.id, a.id, 2);
      await move(admin, { kind: 'TRANSFER', itemId: item.id, storeId: a.id, toStoreId: b.id, quantity: 1 });
    } finally {
      stop();
    }
    expect(seen).toEqual([
      { type: 'inventory.moved', payload: { itemIds: [item.id], storeId: a.id, assetId: site.id } },
      { type: 'inventory.moved', payload: { itemIds: [item.id], storeId: a.id, assetId: site.id } },
      { type: 'inventory.moved', payload: { itemIds: [item.id], storeId: b.id, assetId: null } },
    ]);
  });

  it('keeps the ledger append-only', async () => {
    const row = await t.db
      .selectFrom('inventory_movements')
      .select('id')
      .where('tenant_id', '=', t.tenantA)
      .limit(1)
      .executeTakeFirstOrThrow();
    await expect(sql`update inventory_movements set quantity = 99 where id = ${row.id}`.execute(t.db)).rejects.toThrow(/append-only/);
  });
});

describe('serial-tracked items', () => {
  it('receives serials, moves only serials that are in the store, issues and returns them by ticket', async () => {
    const a = await makeStore(admin);
    const b = await makeStore(admin);
    const item = await makeItem(admin, { tracking: 'SERIAL' });
    const ticket = await raise(admin, { title: 'Camera down' });
    const answered: Movement[][] = [];
    let res = await move(admin, { kind: 'RECEIVE', itemId: item.id, storeId: a.id, serials: ['SN-1', 'SN-2', 'SN-3'] });
    expect(res.statusCode, res.body).toBe(201);
    answered.unshift(res.json().movements);
    res = await move(admin, { kind: 'RECEIVE', itemId: item.id, storeId: b.id, serials: ['sn-1'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('Serial SN-1 already exists for this item');
    res = await move(admin, { kind: 'RECEIVE', itemId: item.id, storeId: a.id, quantity: 2 });
    expect(res.json().detail).toBe('A serial-tracked item moves by serial numbers, not by quantity');
    res = await move(admin, { kind: 'TRANSFER', itemId: item.id, storeId: a.id, toStoreId: b.id, serials: ['SN-2'] });
    expect(res.statusCode, res.body).toBe(201);
    answered.unshift(res.json().movements);
    res = await move(admin, { kind: 'ISSUE', itemId: item.id, storeId: a.id, ticketId: ticket.id, serials: ['SN-2'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`Serial SN-2 is not in ${a.name}`);
    res = await move(admin, { kind: 'ISSUE', itemId: item.id, storeId: b.id, ticketId: ticket.id, serials: ['SN-2'] });
    expect(res.statusCode, res.body).toBe(201);
    answered.unshift(res.json().movements);
    res = await move(admin, { kind: 'RETURN', itemId: item.id, storeId: a.id, ticketId: ticket.id, serials: ['SN-3'] });
    expect(res.json().detail).toBe('Serial SN-3 was not issued to this ticket');
    res = await move(admin, { kind: 'RETURN', itemId: item.id, storeId: a.id, ticketId: ticket.id, serials: ['sn-2'] });
    expect(res.statusCode, res.body).toBe(201);
    answered.unshift(res.json().movements);
    // A move answers its movements as the ledger lists them, newest first, with the serial as it was received.
    expect((await admin.get(`/iotapp/inventory/movements/?itemId=${item.id}`)).json().contents).toEqual(answered.flat());
    const d = await detail(admin, item.id);
    expect(d.serials.map((s) => [s.serial, s.storeId, s.status])).toEqual([
      ['SN-1', a.id, 'IN_STORE'],
      ['SN-2', a.id, 'IN_STORE'],
      ['SN-3', a.id, 'IN_STORE'],
    ]);
    expect(await onHand(item.id, a.id)).toBe(3);
    expect(await onHand(item.id, b.id)).toBe(0);
  });
});

describe('site isolation', () => {
  it('shows a store at a site only to those who see the site or manage the store', async () => {
    const site = await makeSite(admin);
    const store = await makeStore(admin, { assetId: site.id });
    expect(store.siteName).toBe(site.name);
    expect((await manager.get(`/iotapp/inventory/stores/${store.id}/`)).statusCode).toBe(404);
    expect((await manager.get(`/iotapp/inventory/stock/?storeId=${store.id}`)).statusCode).toBe(404);
    const list = (await manager.get('/iotapp/inventory/stores/?limit=100')).json() as { contents: Store[] };
    expect(list.contents.map((s) => s.id)).not.toContain(store.id);
    const item = await makeItem(admin);
    expect((await move(manager, { kind: 'RECEIVE', itemId: item.id, storeId: store.id, quantity: 1 })).statusCode).toBe(404);
    await admin.put(`/iotapp/inventory/stores/${store.id}/`, { name: store.name, assetId: site.id, managerIds: [managerId] });
    expect((await manager.get(`/iotapp/inventory/stores/${store.id}/`)).statusCode).toBe(200);
    expect((await move(manager, { kind: 'RECEIVE', itemId: item.id, storeId: store.id, quantity: 1 })).statusCode).toBe(201);
  });

  it('does not let another tenant reach a store, item or its stock', async () => {
    const store = await makeStore(admin);
    const item = await makeItem(admin);
    await receive(admin, item.id, store.id, 1);
    const b = await t.login('customeradmin', HOST_B);
    expect((await b.get(`/iotapp/inventory/stores/${store.id}/`)).statusCode).toBe(404);
    expect((await b.get(`/iotapp/inventory/items/${item.id}/`)).statusCode).toBe(404);
    expect((await b.get(`/iotapp/inventory/stock/?storeId=${store.id}`)).statusCode).toBe(404);
    expect((await move(b, { kind: 'RECEIVE', itemId: item.id, storeId: store.id, quantity: 1 })).statusCode).toBe(404);
    expect((await b.get(`/iotapp/inventory/movements/?itemId=${item.id}`)).json().totalCount).toBe(0);
  });
});

describe('low stock', () => {
  it("tells the store's managers once per crossing below the threshold", async () => {
    const store = await makeStore(admin, { managerIds: [managerId] });
    const item = await makeItem(admin, { lowStockThreshold: 3, name: 'Fuel filter' });
    const count = async () => {
      await t.handles.notifications.settled();
      const res = await manager.get('/notification/inbox/?limit=100');
      return (res.json().contents as Array<{ notification: { verb: string; metadata: { url: string } } }>).filter(
        (n) => n.notification.verb === 'inventory.low-stock' && n.notification.metadata.url === `/inventory-management/${item.id}/view`,
      ).length;
    };
    await receive(admin, item.id, store.id, 5);
    const out = (quantity: number) => move(admin, { kind: 'WRITE_OFF', itemId: item.id, storeId: store.id, quantity, note: 'Used' });
    expect((await out(1)).statusCode).toBe(201);
    expect(await count()).toBe(0);
    expect((await out(2)).statusCode).toBe(201);
    expect(await count()).toBe(1);
    expect((await out(1)).statusCode).toBe(201);
    expect(await count()).toBe(1);
    const low = await stockOf(admin, `storeId=${store.id}&low=true`);
    expect(low.contents.map((r) => r.itemId)).toContain(item.id);
    await receive(admin, item.id, store.id, 5);
    expect((await out(4)).statusCode).toBe(201);
    expect(await count()).toBe(2);
  });
});

describe('replacing a faulty device from a ticket', () => {
  it('consumes the serial spare and updates the device in one transaction, with history and activity', async () => {
    const site = await makeSite(admin);
    const device = await makeDevice(admin, site.id);
    const store = await makeStore(admin);
    const item = await makeItem(admin, { tracking: 'SERIAL', make: 'Teltonika', model: 'RUT950' });
    await move(admin, { kind: 'RECEIVE', itemId: item.id, storeId: store.id, serials: ['RUT-001', 'RUT-002'] });
    const ticket = await raise(admin, { title: 'Router dead', locationId: site.id });
    const res = await admin.post('/iotapp/inventory/replacements/', {
      ticketId: ticket.id,
      deviceId: device.id,
      itemId: item.id,
      storeId: store.id,
      serial: 'RUT-001',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().device).toEqual({ id: device.id, serialNumber: 'RUT-001', vendor: 'Teltonika', model: 'RUT950' });
    const row = await t.db.selectFrom('devices').select('metadata').where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(row.metadata).toMatchObject({ serialNumber: 'RUT-001', vendor: 'Teltonika', model: 'RUT950' });
    const m = await t.db
      .selectFrom('inventory_movements')
      .select(['kind', 'device_id', 'ticket_id'])
      .where('item_id', '=', item.id)
      .where('kind', '=', 'ISSUE')
      .execute();
    expect(m).toEqual([{ kind: 'ISSUE', device_id: device.id, ticket_id: ticket.id }]);
    expect(await onHand(item.id, store.id)).toBe(1);
    expect((await history(admin, ticket.id)).some((l) => l.note?.includes('RUT-001'))).toBe(true);
    expect(await activity('inventory.replace-device')).toBe(1);
    const again = await admin.post('/iotapp/inventory/replacements/', {
      ticketId: ticket.id,
      deviceId: device.id,
      itemId: item.id,
      storeId: store.id,
      serial: 'RUT-001',
    });
    expect(again.statusCode).toBe(409);
  });

  it('rolls everything back when the device update fails', async () => {
    const site = await makeSite(admin);
    const device = await makeDevice(admin, site.id);
    const store = await makeStore(admin);
    const item = await makeItem(admin, { tracking: 'SERIAL', make: 'Axis', model: 'Q6075' });
    await move(admin, { kind: 'RECEIVE', itemId: item.id, storeId: store.id, serials: ['AX-1'] });
    const ticket = await raise(admin, { title: 'PTZ broken', locationId: site.id });
    const before = await t.db.selectFrom('devices').select('metadata').where('id', '=', device.id).executeTakeFirstOrThrow();
    const historyBefore = (await history(admin, ticket.id)).length;
    await sql`create or replace function inventory_test_fail() returns trigger language plpgsql as $$ begin raise exception 'device write failed'; end $$`.execute(
      t.db,
    );
    await sql`create trigger inventory_test_fail before update on devices for each row execute function inventory_test_fail()`.execute(
      t.db,
    );
    try {
      const res = await admin.post('/iotapp/inventory/replacements/', {
        ticketId: ticket.id,
        deviceId: device.id,
        itemId: item.id,
        storeId: store.id,
        serial: 'AX-1',
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await sql`drop trigger inventory_test_fail on devices`.execute(t.db);
    }
    const after = await t.db.selectFrom('devices').select('metadata').where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(after.metadata).toEqual(before.metadata);
    expect(await onHand(item.id, store.id)).toBe(1);
    expect((await detail(admin, item.id)).serials[0]).toMatchObject({ serial: 'AX-1', storeId: store.id, status: 'IN_STORE' });
    expect((await history(admin, ticket.id)).length).toBe(historyBefore);
    expect(await t.handles.inventory.balanceMismatches(t.tenantA)).toEqual([]);
  });

  it('refuses a device the user does not see, and a quantity item', async () => {
    const b = await t.login('customeradmin', HOST_B);
    const siteB = await makeSite(b);
    const deviceB = await makeDevice(b, siteB.id);
    const store = await makeStore(admin);
    const item = await makeItem(admin, { tracking: 'SERIAL' });
    const ticket = await raise(admin, { title: 'x' });
    const res = await admin.post('/iotapp/inventory/replacements/', {
      ticketId: ticket.id,
      deviceId: deviceB.id,
      itemId: item.id,
      storeId: store.id,
      serial: 'Z',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Device not found.');
  });
});
