import { TICKET_STATUSES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letOperatorsShare } from './dashboards-fixtures.ts';
import { raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, type TestApp, type TestClient } from './support/harness.ts';
import { makeSite } from './support/sites-factory.ts';

/**
 * Ticket widgets show a non-admin exactly the tickets their ticket list shows: their sites, the tickets they take
 * part in, and of a type with the createdBy setting only the ones they raised. A shared link shows what its
 * creator's list shows, narrowed by the link's conditions.
 */

const clock = createTestClock();
let t: TestApp;
let admin: TestClient;
let field: TestClient;
let anon: TestClient;
let north: { id: number };
let south: { id: number };
let dashboardId: number;

const WIDGETS = [
  { id: 'list', kind: 'ticketList', limit: 100 },
  { id: 'counters', kind: 'ticketCounters', statuses: [...TICKET_STATUSES] },
  { id: 'orders', kind: 'ticketList', types: ['WORKORDERTICKET'], limit: 100 },
  { id: 'plain', kind: 'ticketList', types: ['TICKET'], limit: 100 },
];

const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);

async function listed(client: TestClient, query: string) {
  const res = await client.get(`/helpdesk/tickets/?limit=100&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { ids: ids(res.json().contents), total: res.json().totalCount as number };
}

async function viewerWidget(client: TestClient, widgetId: string) {
  const res = await client.post('/iotapp/dashboards/widget-data/', { dashboardId, widgetId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const splitPath = (path: string) => {
  const [, , id, token] = path.split('/');
  return { dashboardId: Number(id), token: token as string };
};
async function linkWidget(path: string, widgetId: string) {
  const res = await anon.post('/iotapp/analytics-dashboard/widget-data/', { ...splitPath(path), widgetId, range: null }, {
    csrf: false,
  } as never);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function share(conditions: unknown[]) {
  const res = await field.post('/iotapp/analytics-links/', {
    dashboardId,
    label: 'Field tickets',
    expiresAt: new Date(clock.now().getTime() + 86_400_000).toISOString(),
    rls_conditions: conditions,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().path as string;
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.login('customeradmin');
  anon = t.anonymous();
  north = await makeSite(admin, { name: 'Tickets North' });
  south = await makeSite(admin, { name: 'Tickets South' });
  const fieldId = await userId(t, t.tenantA, 'fieldexecutive');
  expect((await admin.post('/iotapp/user-assets/', { userId: fieldId, assetIds: [north.id] })).statusCode).toBe(200);
  await letOperatorsShare(t);
  field = await t.login('fieldexecutive');

  // TICKET has the createdBy setting: non-admins see only the ones they raised, wherever they are
  const config = (await admin.get('/helpdesk/config/')).json();
  expect((await admin.put('/helpdesk/config/', { typeSettings: { ...config.types.TICKET, createdBy: true } })).statusCode).toBe(200);
  await raise(admin, { title: 'Admin ticket at North', locationId: north.id });
  await raise(admin, { title: 'Admin ticket at South, assigned to field', locationId: south.id, assignedTo: fieldId });
  await raise(field, { title: 'Field ticket at North', locationId: north.id });
  await raise(admin, { type: 'WORKORDERTICKET', title: 'Work order at North', locationId: north.id });
  await raise(admin, {
    type: 'WORKORDERTICKET',
    title: 'Work order at South, assigned to field',
    locationId: south.id,
    assignedTo: fieldId,
  });
  await raise(admin, { type: 'WORKORDERTICKET', title: 'Work order at South', locationId: south.id });

  const res = await admin.post('/iotapp/dashboards/', { name: 'Ticket analytics', config: { type: 'ANALYTICS' }, widgets: WIDGETS });
  expect(res.statusCode, res.body).toBe(201);
  dashboardId = res.json().id;
}, 120_000);
afterAll(() => t?.close());

describe('ticket widgets of a non-admin', () => {
  it('show exactly what their ticket list shows, the createdBy setting included', async () => {
    const all = await listed(field, 'type=all');
    const titles = (await field.get('/helpdesk/tickets/?limit=100&type=all')).json().contents.map((c: { title: string }) => c.title);
    // their own TICKET, the work orders at their site and the one they are assigned; no one else's TICKET
    expect(titles).toEqual(
      expect.arrayContaining(['Field ticket at North', 'Work order at North', 'Work order at South, assigned to field']),
    );
    expect(titles).not.toContain('Admin ticket at North');
    expect(titles).not.toContain('Admin ticket at South, assigned to field');
    expect(titles).not.toContain('Work order at South');

    const list = await viewerWidget(field, 'list');
    expect(ids(list.rows)).toEqual(all.ids);
    expect(list.totalCount).toBe(all.total);
    expect((await viewerWidget(field, 'counters')).total).toBe(all.total);
    expect(ids((await viewerWidget(field, 'orders')).rows)).toEqual((await listed(field, 'type=WORKORDERTICKET')).ids);
    expect(ids((await viewerWidget(field, 'plain')).rows)).toEqual((await listed(field, 'type=TICKET')).ids);
  });

  it('and an admin sees every ticket, in the widget as in the list', async () => {
    const all = await listed(admin, 'type=all');
    expect(ids((await viewerWidget(admin, 'list')).rows)).toEqual(all.ids);
    expect(all.ids.length).toBeGreaterThanOrEqual(6);
  });
});

describe('ticket widgets through a link made by a non-admin', () => {
  it("show what the creator's ticket list shows", async () => {
    const path = await share([]);
    const all = await listed(field, 'type=all');
    const list = await linkWidget(path, 'list');
    expect(ids(list.rows)).toEqual(all.ids);
    expect(list.totalCount).toBe(all.total);
    expect((await linkWidget(path, 'counters')).total).toBe(all.total);
    expect(ids((await linkWidget(path, 'plain')).rows)).toEqual((await listed(field, 'type=TICKET')).ids);
  });

  it("narrowed by the link's site conditions", async () => {
    const path = await share([{ dataset: 'sites', column: 'id', operator: 'in', values: [north.id] }]);
    const atNorth = await listed(field, `type=all&locationId=${north.id}`);
    const list = await linkWidget(path, 'list');
    expect(ids(list.rows)).toEqual(atNorth.ids);
    expect(list.rows.every((r: { siteId: number }) => r.siteId === north.id)).toBe(true);
    expect((await linkWidget(path, 'counters')).total).toBe(atNorth.total);
  });

  it('follow a change of the createdBy setting at once', async () => {
    const path = await share([]);
    const config = (await admin.get('/helpdesk/config/')).json();
    expect((await admin.put('/helpdesk/config/', { typeSettings: { ...config.types.TICKET, createdBy: false } })).statusCode).toBe(200);
    const all = await listed(field, 'type=all');
    const titles = (await linkWidget(path, 'list')).rows.map((r: { title: string }) => r.title);
    expect(titles).toContain('Admin ticket at North');
    expect(titles).toContain('Admin ticket at South, assigned to field');
    expect(ids((await linkWidget(path, 'list')).rows)).toEqual(all.ids);
    expect(ids((await viewerWidget(field, 'list')).rows)).toEqual(all.ids);
  });
});
