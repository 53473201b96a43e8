import type { AnalyticsLink, LinkView } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letOperatorsShare, seedTelemetry } from './dashboards-fixtures.ts';
import { raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

const clock = createTestClock();
let t: TestApp;
let admin: TestClient;
let field: TestClient;
let anon: TestClient;
let anonB: TestClient;
let siteA: { id: number; name: string };
let siteB: { id: number; name: string };
let genA: { id: number; label: string };
let genB: { id: number; label: string };
let dashboardId: number;

/** Every widget of the analytics dashboard: each must honour the link's conditions. */
const WIDGETS = [
  { id: 'north', kind: 'timeseries', deviceIds: [0], keys: ['fuel'], range: { kind: 'relative', lastMs: 86_400_000 } },
  { id: 'south', kind: 'timeseries', deviceIds: [0], keys: ['fuel'], range: { kind: 'relative', lastMs: 86_400_000 } },
  { id: 'gaugeSouth', kind: 'latest', deviceId: 0, key: 'fuel', display: 'gauge' },
  { id: 'summary', kind: 'siteSummary' },
  { id: 'alarms', kind: 'alarmList', state: null },
  { id: 'counters', kind: 'ticketCounters', statuses: ['OPEN'] },
  { id: 'tickets', kind: 'ticketList' },
  { id: 'map', kind: 'siteMap' },
  { id: 'forms', kind: 'formResponses', formId: 1 },
];

const splitPath = (path: string) => {
  const [, , id, token] = path.split('/');
  return { dashboardId: Number(id), token: token as string };
};
const open = (client: TestClient, path: string) =>
  client.post('/iotapp/analytics-dashboard/open/', splitPath(path), { csrf: false } as never);
const widget = (client: TestClient, path: string, widgetId: string, range: unknown = null) =>
  client.post('/iotapp/analytics-dashboard/widget-data/', { ...splitPath(path), widgetId, range }, { csrf: false } as never);

async function share(client: TestClient, conditions: unknown[], extra: Record<string, unknown> = {}) {
  return client.post('/iotapp/analytics-links/', {
    dashboardId,
    label: 'North customer',
    expiresAt: new Date(clock.now().getTime() + 7 * 86_400_000).toISOString(),
    rls_conditions: conditions,
    ...extra,
  });
}
async function shared(conditions: unknown[], client = admin): Promise<AnalyticsLink & { path: string }> {
  const res = await share(client, conditions);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Every widget through the link: refused outright (the expected code) and never any South row. */
async function expectRefusedEverywhere(path: string, code: string) {
  const opened = await open(anon, path);
  expect(opened.statusCode).toBe(403);
  expect(opened.json().code).toBe(code);
  expect(Object.keys(opened.json()).sort()).toEqual(['code', 'detail']);
  for (const w of WIDGETS) {
    const res = await widget(anon, path, w.id);
    expect(res.statusCode, `${w.id}: ${res.body}`).toBe(403);
    expect(res.json().code).toBe(code);
    expect(res.body).not.toMatch(/DG-|Dash North|Dash South|outage/);
  }
}

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.login('customeradmin');
  field = await t.login('fieldexecutive');
  anon = t.anonymous();
  anonB = t.anonymous(HOST_B);
  siteA = await makeSite(admin, { name: 'Dash North' });
  siteB = await makeSite(admin, { name: 'Dash South' });
  genA = await makeDevice(admin, { type: 'GENERATOR', assetId: siteA.id, label: 'DG-NORTH' });
  genB = await makeDevice(admin, { type: 'GENERATOR', assetId: siteB.id, label: 'DG-SOUTH' });
  await seedTelemetry(t, genA.id, 'fuel', 30, clock.now().getTime());
  await seedTelemetry(t, genB.id, 'fuel', 30, clock.now().getTime());
  await raise(admin, { title: 'North outage', locationId: siteA.id });
  await raise(admin, { title: 'South outage', locationId: siteB.id });
  const widgets = WIDGETS.map((w) =>
    w.id === 'north'
      ? { ...w, deviceIds: [genA.id] }
      : w.id === 'south'
        ? { ...w, deviceIds: [genB.id] }
        : w.id === 'gaugeSouth'
          ? { ...w, deviceId: genB.id }
          : w,
  );
  const res = await admin.post('/iotapp/dashboards/', { name: 'Customer analytics', config: { type: 'ANALYTICS' }, widgets });
  expect(res.statusCode, res.body).toBe(201);
  dashboardId = res.json().id;
  // the field executive sees only North and may share
  const fieldId = await userId(t, t.tenantA, 'fieldexecutive');
  expect((await admin.post('/iotapp/user-assets/', { userId: fieldId, assetIds: [siteA.id] })).statusCode).toBe(200);
  await letOperatorsShare(t);
  field = await t.login('fieldexecutive');
}, 120_000);
afterAll(() => t?.close());

describe('a valid link', () => {
  it('opens without a session and shows only the rows its conditions allow, in every widget', async () => {
    const link = await shared([{ dataset: 'sites', column: 'id', operator: 'in', values: [siteA.id] }]);
    expect(link.path).toMatch(new RegExp(`^/analytics-dashboard/${dashboardId}/[A-Za-z0-9_-]{12}[A-Za-z0-9_.-]+[A-Za-z0-9_-]{12}$`));
    const opened = await open(anon, link.path);
    expect(opened.statusCode, opened.body).toBe(200);
    const view = opened.json() as LinkView;
    expect(view.dashboard.widgets.map((w) => w.id)).toEqual(WIDGETS.map((w) => w.id));
    expect(view.label).toBe('North customer');

    expect((await widget(anon, link.path, 'north')).json().data.series[0].points.length).toBe(30);
    for (const id of ['south', 'gaugeSouth']) {
      const res = await widget(anon, link.path, id);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('DG-SOUTH');
    }
    const summary = (await widget(anon, link.path, 'summary')).json();
    expect(summary.data).toMatchObject({ sites: 1, rows: [{ type: 'GENERATOR', total: 1 }] });
    const tickets = (await widget(anon, link.path, 'tickets')).json();
    expect(tickets.data.rows.map((r: { title: string }) => r.title)).toEqual(['North outage']);
    const counters = (await widget(anon, link.path, 'counters')).json();
    expect(counters.data.counts).toEqual([expect.objectContaining({ status: 'OPEN', count: 1 })]);
    const map = (await widget(anon, link.path, 'map')).json();
    expect(map.data.sites.map((s: { name: string }) => s.name)).toEqual(['Dash North']);
    expect((await widget(anon, link.path, 'alarms')).statusCode).toBe(200);
    expect((await widget(anon, link.path, 'forms')).statusCode).toBe(403);
    const now = clock.now().getTime();
    const ranged = await widget(anon, link.path, 'tickets', { startTs: now - 20 * 86_400_000, endTs: now - 19 * 86_400_000 });
    expect(ranged.json().data.rows).toEqual([]);
    expect((await widget(anon, link.path, 'nope')).statusCode).toBe(404);
  });

  it('applies ticket and device conditions as well', async () => {
    const link = await shared([
      { dataset: 'tickets', column: 'status', operator: 'in', values: ['CLOSED'] },
      { dataset: 'devices', column: 'type', operator: 'not_in', values: ['GENERATOR'] },
    ]);
    expect((await widget(anon, link.path, 'tickets')).json().data.rows).toEqual([]);
    expect((await widget(anon, link.path, 'counters')).json().data.counts).toEqual([]);
    expect((await widget(anon, link.path, 'summary')).json().data.rows).toEqual([]);
    expect((await widget(anon, link.path, 'north')).statusCode).toBe(404);
  });

  it('counts views, lists links with their counts, and lists analytics dashboards with their label', async () => {
    const link = await shared([]);
    await open(anon, link.path);
    await open(anon, link.path);
    await widget(anon, link.path, 'summary');
    const list = await admin.get(`/iotapp/analytics-links/?dashboardId=${dashboardId}`);
    expect(list.statusCode, list.body).toBe(200);
    const listed = list.json().contents.find((l: AnalyticsLink) => l.id === link.id);
    expect(listed).toMatchObject({ viewCount: 2, state: 'active', label: 'North customer', dashboardName: 'Customer analytics' });
    expect(listed.path).toMatch(/^\/analytics-dashboard\//);
    expect((await open(anon, listed.path)).statusCode).toBe(200);
    const report = await admin.get('/iotapp/analytics-dashboards/');
    expect(report.statusCode).toBe(200);
    expect(report.json().contents).toEqual(
      expect.arrayContaining([expect.objectContaining({ dashboardId, label: 'North customer', rls_conditions: [] })]),
    );
    expect((await anon.get('/iotapp/analytics-links/')).statusCode).toBe(401);
    expect((await t.login('customer').then((c) => c.get('/iotapp/analytics-links/'))).statusCode).toBe(403);
  });

  it('can only be made of an analytics dashboard, with a future expiry within the limit', async () => {
    const plain = (await admin.post('/iotapp/dashboards/', { name: 'Plain' })).json();
    const notAnalytics = await share(admin, [], { dashboardId: plain.id });
    expect(notAnalytics.json().detail).toBe('Only analytics dashboards can be shared by link');
    const past = await share(admin, [], { expiresAt: new Date(clock.now().getTime() - 1000).toISOString() });
    expect(past.json().detail).toBe('Choose an expiry in the future');
    const far = await share(admin, [], { expiresAt: new Date(clock.now().getTime() + 400 * 86_400_000).toISOString() });
    expect(far.json().detail).toBe('A link can be valid for at most 365 days');
    const unknown = await share(admin, [{ dataset: 'sites', column: 'secret', operator: 'in', values: [1] }]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('This condition is not in the catalogue');
    const sqlish = await share(admin, [{ dataset: 'tickets', column: 'status', operator: 'in', values: ["OPEN' or 1=1 --"] }]);
    expect(sqlish.statusCode).toBe(400);
  });
});

describe('refusals', () => {
  it('refuses an expired link on every widget', async () => {
    const res = await share(admin, [], { expiresAt: new Date(clock.now().getTime() + 60_000).toISOString() });
    const link = res.json();
    expect((await open(anon, link.path)).statusCode).toBe(200);
    clock.advance(120_000);
    await expectRefusedEverywhere(link.path, 'link_expired');
    expect((await open(anon, link.path)).json().detail).toBe('This link has expired');
  });

  it('refuses a tampered payload, tampered padding, and a link moved to another dashboard', async () => {
    const link = await shared([{ dataset: 'sites', column: 'id', operator: 'in', values: [siteA.id] }]);
    const { token } = splitPath(link.path);
    const mid = Math.floor(token.length / 2);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    await expectRefusedEverywhere(`/analytics-dashboard/${dashboardId}/${flip(token, mid)}`, 'link_tampered');
    await expectRefusedEverywhere(`/analytics-dashboard/${dashboardId}/${flip(token, 3)}`, 'link_tampered');
    await expectRefusedEverywhere(`/analytics-dashboard/${dashboardId}/${flip(token, token.length - 2)}`, 'link_tampered');
    const other = (await admin.post('/iotapp/dashboards/', { name: 'Other analytics', config: { type: 'ANALYTICS' } })).json();
    expect((await open(anon, `/analytics-dashboard/${other.id}/${token}`)).json().code).toBe('link_tampered');
    expect((await open(anon, `/analytics-dashboard/${dashboardId}/${'x'.repeat(40)}`)).json().code).toBe('link_malformed');
    const garbage = await anon.post('/iotapp/analytics-dashboard/open/', { dashboardId, token: 'a b' }, { csrf: false } as never);
    expect(garbage.statusCode).toBe(400);
  });

  it("refuses a link on another tenant's host", async () => {
    const link = await shared([]);
    const res = await open(anonB, link.path);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('link_wrong_tenant');
    const data = await widget(anonB, link.path, 'summary');
    expect(data.json().code).toBe('link_wrong_tenant');
  });

  it('refuses a revoked link, and only the tenant may revoke', async () => {
    const link = await shared([]);
    const adminB = await t.login('customeradmin', HOST_B);
    expect((await adminB.post(`/iotapp/analytics-links/${link.id}/revoke/`)).statusCode).toBe(404);
    const revoked = await admin.post(`/iotapp/analytics-links/${link.id}/revoke/`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({ state: 'revoked', path: null });
    await expectRefusedEverywhere(link.path, 'link_revoked');
  });

  it('keeps links of a rotated key valid while the key is kept, and refuses them once it is retired', async () => {
    const old = await shared([]);
    const before = await t.handles.dashboards.keys.kids();
    const kid = await t.handles.dashboards.keys.rotate();
    expect(kid).not.toBe(before.active);
    expect((await open(anon, old.path)).statusCode).toBe(200);
    const fresh = await shared([]);
    expect(fresh.kid).toBe(kid);
    expect(old.kid).toBe(before.active);
    expect(await t.handles.dashboards.keys.retire(kid)).toBe(false);
    expect(await t.handles.dashboards.keys.retire(before.active)).toBe(true);
    await expectRefusedEverywhere(old.path, 'link_unknown_key');
    expect((await open(anon, fresh.path)).statusCode).toBe(200);
    // a header naming a key that never existed
    const { token } = splitPath(fresh.path);
    const jwe = token.slice(12, -12);
    const header = Buffer.from(JSON.stringify({ alg: 'dir', enc: 'A256GCM', kid: 'k-unknown', cty: 'JWT' })).toString('base64url');
    const forged = `${token.slice(0, 12)}${header}${jwe.slice(jwe.indexOf('.'))}${token.slice(-12)}`;
    await expectRefusedEverywhere(`/analytics-dashboard/${dashboardId}/${forged}`, 'link_unknown_key');
  });

  it("refuses conditions that would widen the creator's scope, at creation and again at use", async () => {
    const wide = await share(field, [{ dataset: 'sites', column: 'id', operator: 'in', values: [siteB.id] }]);
    expect(wide.statusCode).toBe(400);
    expect(wide.json().detail).toBe('A condition names rows outside your own sites');
    const device = await share(field, [{ dataset: 'devices', column: 'id', operator: 'in', values: [genB.id] }]);
    expect(device.json().detail).toBe('A condition names rows outside your own sites');
    const foreignSite = await share(admin, [{ dataset: 'sites', column: 'id', operator: 'in', values: [999_999] }]);
    expect(foreignSite.statusCode).toBe(400);

    // with no conditions, a link never shows more than its creator sees
    const plain = await shared([], field);
    expect((await widget(anon, plain.path, 'tickets')).json().data.rows.map((r: { title: string }) => r.title)).toEqual(['North outage']);
    expect((await widget(anon, plain.path, 'south')).statusCode).toBe(404);
    expect((await widget(anon, plain.path, 'map')).json().data.sites.map((s: { name: string }) => s.name)).toEqual(['Dash North']);

    // the creator loses the site: the link that names it is refused, the plain one shows nothing of it
    const named = await shared([{ dataset: 'sites', column: 'id', operator: 'in', values: [siteA.id] }], field);
    expect((await open(anon, named.path)).statusCode).toBe(200);
    const fieldId = await userId(t, t.tenantA, 'fieldexecutive');
    expect((await admin.post('/iotapp/user-assets/remove/', { userId: fieldId, assetIds: [siteA.id] })).statusCode).toBe(200);
    await expectRefusedEverywhere(named.path, 'link_scope');
    expect((await widget(anon, plain.path, 'tickets')).json().data.rows).toEqual([]);
    expect((await widget(anon, plain.path, 'map')).json().data.sites).toEqual([]);
  });
});
