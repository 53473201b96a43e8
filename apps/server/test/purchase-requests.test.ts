import type { PurchaseRequestDetail } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite, raise } from './helpdesk-fixtures.ts';
import { makeItem, makeStore, receive } from './inventory-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let manager: TestClient;
let viewer: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  manager = await t.login('storemanager');
  viewer = await t.login('customer');
});
afterAll(async () => t.close());

const create = async (client: TestClient, body: Record<string, unknown>) => client.post('/iotapp/purchase-requests/', body);
const act = async (client: TestClient, id: number, action: string, extra: Record<string, unknown> = {}) =>
  client.post(`/iotapp/purchase-requests/${id}/actions/`, { action, ...extra });
const activity = async (action: string, id: number) =>
  t.db
    .selectFrom('user_activity_logs')
    .select(['action'])
    .where('tenant_id', '=', t.tenantA)
    .where('action', '=', action)
    .where('object_id', '=', String(id))
    .execute();

describe('purchase requests', () => {
  it('raises a request from a ticket, totals it, logs it and writes the ticket history', async () => {
    const store = await makeStore(admin);
    const a = await makeItem(admin);
    const b = await makeItem(admin);
    const ticket = await raise(admin);
    const res = await create(admin, {
      title: 'Filters for DG service',
      storeId: store.id,
      ticketId: ticket.id,
      lines: [
        { itemId: a.id, quantity: 3, unitCost: 12.5 },
        { itemId: b.id, quantity: 2, unitCost: 100 },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const pr = res.json() as PurchaseRequestDetail;
    expect(pr).toMatchObject({ state: 'DRAFT', source: 'TICKET', total: 237.5, lineCount: 2, ticket: { id: ticket.id } });
    expect(pr.number).toMatch(/^PR-\d{5}$/);
    expect(pr.lines.map((l) => l.total)).toEqual([37.5, 200]);
    expect(pr.actions).toEqual(['submit', 'cancel']);
    expect(await activity('purchase-request.create', pr.id)).toHaveLength(1);
    const hist = await admin.get(`/helpdesk/tickets/${ticket.id}/history/`);
    if (hist.statusCode === 200) expect(hist.body).toContain(pr.number);
  });

  it('validates the body with the messages of the form', async () => {
    const store = await makeStore(admin);
    const item = await makeItem(admin);
    const empty = await create(manager, { title: '', storeId: store.id, lines: [] });
    expect(empty.statusCode).toBe(400);
    const zero = await create(manager, { title: 'x', storeId: store.id, lines: [{ itemId: item.id, quantity: 0, unitCost: 1 }] });
    expect(zero.statusCode).toBe(400);
    expect(zero.body).toContain('Quantity must be at least 1');
    const twice = await create(manager, {
      title: 'x',
      storeId: store.id,
      lines: [
        { itemId: item.id, quantity: 1, unitCost: 1 },
        { itemId: item.id, quantity: 1, unitCost: 1 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('Name each item once');
    const negative = await create(manager, { title: 'x', storeId: store.id, lines: [{ itemId: item.id, quantity: 1, unitCost: -1 }] });
    expect(negative.statusCode).toBe(400);
  });

  it('follows the state rules: submit, approve by an approver, order, receive into the ledger', async () => {
    const store = await makeStore(admin);
    const item = await makeItem(admin);
    const pr = (
      await create(manager, { title: 'Batteries', storeId: store.id, lines: [{ itemId: item.id, quantity: 7, unitCost: 40 }] })
    ).json();
    // an approval before submission is refused
    expect((await act(admin, pr.id, 'approve')).statusCode).toBe(409);
    expect((await act(manager, pr.id, 'submit')).statusCode).toBe(200);
    // the store manager may not approve
    expect((await act(manager, pr.id, 'approve')).statusCode).toBe(403);
    const approved = await act(admin, pr.id, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ state: 'APPROVED', decidedBy: { name: expect.any(String) } });
    expect((await act(admin, pr.id, 'order')).json().state).toBe('ORDERED');
    const before = await t.handles.inventory.ledgerOnHand(t.tenantA, item.id, store.id);
    const received = await act(manager, pr.id, 'receive');
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json()).toMatchObject({ state: 'RECEIVED', actions: [] });
    expect(await t.handles.inventory.ledgerOnHand(t.tenantA, item.id, store.id)).toBe(before + 7);
    const moves = await admin.get(`/iotapp/inventory/movements/?itemId=${item.id}`);
    expect(moves.json().contents[0]).toMatchObject({ kind: 'RECEIVE', quantity: 7 });
    expect(moves.json().contents[0].note).toContain(received.json().number);
    // the item now carries the last purchase price
    const stock = await admin.get(`/iotapp/reports/inventory/stock/?storeId=${store.id}`);
    expect(stock.json().contents[0]).toMatchObject({ unitCost: 40, value: 280 });
    // nothing after received
    expect((await act(manager, pr.id, 'cancel', { reason: 'late' })).statusCode).toBe(409);
    expect((await act(manager, pr.id, 'receive')).statusCode).toBe(409);
    for (const a of ['submit', 'approve', 'order', 'receive']) expect(await activity(`purchase-request.${a}`, pr.id)).toHaveLength(1);
    expect(await t.handles.inventory.balanceMismatches(t.tenantA)).toEqual([]);
  });

  it('needs a reason to reject or cancel; only drafts are edited', async () => {
    const store = await makeStore(admin);
    const item = await makeItem(admin);
    const body = { title: 'Fuses', storeId: store.id, lines: [{ itemId: item.id, quantity: 1, unitCost: 2 }], submit: true };
    const pr = (await create(manager, body)).json();
    expect(pr.state).toBe('SUBMITTED');
    expect((await act(admin, pr.id, 'reject')).statusCode).toBe(400);
    expect((await manager.put(`/iotapp/purchase-requests/${pr.id}/`, { ...body, title: 'Edited' })).statusCode).toBe(409);
    const rejected = await act(admin, pr.id, 'reject', { reason: 'Use stock from the central store' });
    expect(rejected.json()).toMatchObject({ state: 'REJECTED', reason: 'Use stock from the central store' });
    const draft = (await create(manager, { ...body, submit: false })).json();
    const edited = await manager.put(`/iotapp/purchase-requests/${draft.id}/`, {
      ...body,
      submit: false,
      title: 'Fuses, more',
      lines: [{ itemId: item.id, quantity: 4, unitCost: 2.25 }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'Fuses, more', total: 9, state: 'DRAFT' });
    expect((await act(manager, draft.id, 'cancel', { reason: 'Not needed' })).json().state).toBe('CANCELLED');
  });

  it('raises a request with one click from what is low in a store', async () => {
    const store = await makeStore(admin);
    const low = await makeItem(admin, { lowStockThreshold: 5 });
    const fine = await makeItem(admin, { lowStockThreshold: 2 });
    await receive(admin, low.id, store.id, 2);
    await receive(admin, fine.id, store.id, 9);
    const res = await manager.post('/iotapp/purchase-requests/from-low-stock/', { storeId: store.id });
    expect(res.statusCode, res.body).toBe(201);
    const pr = res.json() as PurchaseRequestDetail;
    expect(pr.source).toBe('LOW_STOCK');
    expect(pr.lines).toEqual([expect.objectContaining({ itemId: low.id, quantity: 8 })]);
    const none = await makeStore(admin);
    const nothing = await manager.post('/iotapp/purchase-requests/from-low-stock/', { storeId: none.id });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.body).toContain('No item is below its low-stock threshold');
  });

  it('receives serial items only with one serial per unit', async () => {
    const store = await makeStore(admin);
    const hdd = await makeItem(admin, { tracking: 'SERIAL' });
    const pr = (
      await create(admin, { title: 'HDDs', storeId: store.id, lines: [{ itemId: hdd.id, quantity: 2, unitCost: 90 }], submit: true })
    ).json();
    await act(admin, pr.id, 'approve');
    const missing = await act(admin, pr.id, 'receive', { serials: { [hdd.id]: ['SN-1'] } });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('Enter 2 serial numbers');
    const ok = await act(admin, pr.id, 'receive', { serials: { [hdd.id]: [`SN-A-${pr.id}`, `SN-B-${pr.id}`] } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await t.handles.inventory.ledgerOnHand(t.tenantA, hdd.id, store.id)).toBe(2);
  });

  it('lists with filters and totals per state; scoped by the stores a user sees; refused without permission', async () => {
    const site = await makeSite(admin, `PR hidden site ${Date.now()}`);
    const hiddenStore = await makeStore(admin, { assetId: site.id });
    const item = await makeItem(admin);
    const hidden = (
      await create(admin, { title: 'Hidden site spares', storeId: hiddenStore.id, lines: [{ itemId: item.id, quantity: 1, unitCost: 5 }] })
    ).json();
    const all = await admin.get('/iotapp/purchase-requests/?limit=100');
    expect(all.statusCode).toBe(200);
    const list = all.json();
    expect(list.contents.some((p: { id: number }) => p.id === hidden.id)).toBe(true);
    expect(list.totals.reduce((n: number, s: { count: number }) => n + s.count, 0)).toBe(list.totalCount);
    const mine = (await manager.get('/iotapp/purchase-requests/?limit=100')).json();
    expect(mine.contents.some((p: { id: number }) => p.id === hidden.id)).toBe(false);
    expect((await manager.get(`/iotapp/purchase-requests/${hidden.id}/`)).statusCode).toBe(404);
    expect((await act(manager, hidden.id, 'submit')).statusCode).toBe(404);
    const drafts = (await admin.get('/iotapp/purchase-requests/?state=DRAFT&limit=100')).json();
    expect(drafts.contents.every((p: { state: string }) => p.state === 'DRAFT')).toBe(true);
    const searched = (await admin.get(`/iotapp/purchase-requests/?search=${encodeURIComponent(hidden.number)}`)).json();
    expect(searched.contents.map((p: { id: number }) => p.id)).toEqual([hidden.id]);
    expect((await viewer.get('/iotapp/purchase-requests/')).statusCode).toBe(403);
    expect(
      (await create(viewer, { title: 'x', storeId: hiddenStore.id, lines: [{ itemId: item.id, quantity: 1, unitCost: 1 }] })).statusCode,
    ).toBe(403);
  });

  it('never shows or changes another tenant’s request, store or item', async () => {
    const store = await makeStore(admin);
    const item = await makeItem(admin);
    const pr = (
      await create(admin, { title: 'Tenant A', storeId: store.id, lines: [{ itemId: item.id, quantity: 1, unitCost: 1 }] })
    ).json();
    const other = await t.login('customeradmin', HOST_B);
    expect((await other.get(`/iotapp/purchase-requests/${pr.id}/`)).statusCode).toBe(404);
    expect((await act(other, pr.id, 'cancel', { reason: 'x' })).statusCode).toBe(404);
    expect((await other.get('/iotapp/purchase-requests/?limit=100')).json().contents.some((p: { id: number }) => p.id === pr.id)).toBe(
      false,
    );
    const theirStore = await makeStore(other);
    const res = await create(other, { title: 'x', storeId: theirStore.id, lines: [{ itemId: item.id, quantity: 1, unitCost: 1 }] });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(item.name);
    expect(
      (await create(other, { title: 'x', storeId: store.id, lines: [{ itemId: item.id, quantity: 1, unitCost: 1 }] })).statusCode,
    ).toBe(404);
  });
});
