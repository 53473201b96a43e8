import { DASHBOARD_MESSAGES, type DashboardDetail, type DashboardFolder, type WidgetDataResponse } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesOf } from './activity-log-fixtures.ts';
import { dashboardBody, dashboardsObjectRoutes, seedTelemetry } from './dashboards-fixtures.ts';
import { raise, userId } from './helpdesk-fixtures.ts';
import { createTestApp, createTestClock, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { makeDevice, makeSite } from './support/sites-factory.ts';

const clock = createTestClock();
let t: TestApp;
let admin: TestClient;
let field: TestClient;
let viewer: TestClient;
let adminB: TestClient;
let siteA: { id: number; name: string };
let siteB: { id: number; name: string };
let genA: { id: number; label: string; accessToken: string };
let genB: { id: number; label: string; accessToken: string };

const data = async (client: TestClient, body: unknown) => {
  const res = await client.post('/iotapp/dashboards/widget-data/', body);
  return res;
};

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.login('customeradmin');
  field = await t.login('fieldexecutive');
  viewer = await t.login('customer');
  adminB = await t.login('customeradmin', HOST_B);
  siteA = await makeSite(admin, { name: 'Dash North', latitude: 12.9, longitude: 77.5 });
  siteB = await makeSite(admin, { name: 'Dash South', latitude: 13.1, longitude: 77.7 });
  genA = await makeDevice(admin, { type: 'GENERATOR', assetId: siteA.id, label: 'DG-NORTH' });
  genB = await makeDevice(admin, { type: 'GENERATOR', assetId: siteB.id, label: 'DG-SOUTH' });
  await makeDevice(admin, { type: 'UPS', assetId: siteA.id, label: 'UPS-NORTH' });
  const assigned = await admin.post('/iotapp/user-assets/', { userId: await userId(t, t.tenantA, 'fieldexecutive'), assetIds: [siteA.id] });
  expect(assigned.statusCode, assigned.body).toBe(200);
  await seedTelemetry(t, genA.id, 'fuel', 1200, clock.now().getTime());
  await seedTelemetry(t, genB.id, 'fuel', 50, clock.now().getTime());
  await raise(admin, { title: 'North outage', locationId: siteA.id });
  await raise(admin, { title: 'South outage', locationId: siteB.id });
}, 120_000);
afterAll(() => t?.close());

describe('folders', () => {
  let top: DashboardFolder;
  let child: DashboardFolder;
  let other: DashboardFolder;

  it('creates nested folders and lists them with children in index order (limit 100)', async () => {
    top = (await admin.post('/iotapp/dashboards/folders/', { name: 'Energy' })).json();
    const res = await admin.post('/iotapp/dashboards/folders/', { name: 'Generators', parentId: top.id });
    expect(res.statusCode, res.body).toBe(201);
    child = res.json();
    other = (await admin.post('/iotapp/dashboards/folders/', { name: 'Operations' })).json();
    const list = await admin.get('/iotapp/dashboards/folders/?limit=100');
    expect(list.statusCode, list.body).toBe(200);
    const byId = new Map(list.json().contents.map((f: DashboardFolder) => [f.id, f]));
    expect((byId.get(top.id) as DashboardFolder).children).toEqual([child.id]);
    expect((byId.get(child.id) as DashboardFolder).parentId).toBe(top.id);
    expect((await admin.get('/iotapp/dashboards/folders/?limit=101')).statusCode).toBe(400);
  });

  it('opens a folder with its breadcrumb path', async () => {
    const res = await viewer.get(`/iotapp/dashboards/folders/${child.id}/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().path).toEqual([
      { id: top.id, name: 'Energy' },
      { id: child.id, name: 'Generators' },
    ]);
  });

  it('moves folders, refuses cycles and too deep nesting, and reorders siblings', async () => {
    const cycle = await admin.post(`/iotapp/dashboards/folders/${top.id}/move/`, { parentId: child.id });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().detail).toBe('A folder cannot be moved into itself or one of its sub-folders');
    const moved = await admin.post(`/iotapp/dashboards/folders/${other.id}/move/`, { parentId: top.id, index: 0 });
    expect(moved.statusCode, moved.body).toBe(200);
    const list = (await admin.get('/iotapp/dashboards/folders/?limit=100')).json().contents as DashboardFolder[];
    expect(list.find((f) => f.id === top.id)?.children).toEqual([other.id, child.id]);
    const reorder = await admin.post('/iotapp/dashboards/reorder/', { parentId: top.id, folderIds: [child.id, other.id] });
    expect(reorder.statusCode, reorder.body).toBe(200);
    const after = (await admin.get('/iotapp/dashboards/folders/?limit=100')).json().contents as DashboardFolder[];
    expect(after.find((f) => f.id === top.id)?.children).toEqual([child.id, other.id]);
    let parent = child.id;
    const made: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await admin.post('/iotapp/dashboards/folders/', { name: `Deep ${i}`, parentId: parent });
      if (res.statusCode !== 201) {
        expect(res.json().detail).toBe('Folders can be nested at most 6 levels deep');
        break;
      }
      parent = res.json().id;
      made.push(parent);
    }
    expect(made.length).toBe(4);
    for (const id of made.reverse()) expect((await admin.delete(`/iotapp/dashboards/folders/${id}/`)).statusCode).toBe(204);
  });

  it('refuses to delete a folder that is not empty, and hides folders from other tenants', async () => {
    const res = await admin.delete(`/iotapp/dashboards/folders/${top.id}/`);
    expect(res.statusCode).toBe(409);
    expect((await adminB.get(`/iotapp/dashboards/folders/${top.id}/`)).statusCode).toBe(404);
    expect((await adminB.delete(`/iotapp/dashboards/folders/${other.id}/`)).statusCode).toBe(404);
    expect((await adminB.get('/iotapp/dashboards/folders/?limit=100')).json().contents).toEqual([]);
  });
});

describe('dashboards', () => {
  let created: DashboardDetail;

  it('creates a dashboard with widgets and both layouts, and stores version 1', async () => {
    const seen: unknown[] = [];
    const stop = t.handles.events.subscribe((e) => {
      if (e.type === 'dashboard.changed') seen.push(e.payload);
    });
    const res = await admin.post('/iotapp/dashboards/', dashboardBody({ name: 'Energy overview', genIds: [genA.id] }));
    stop();
    expect(res.statusCode, res.body).toBe(201);
    created = res.json();
    expect(seen).toEqual([{ kind: 'dashboard', id: created.id, dashboardId: created.id }]);
    expect(created).toMatchObject({ name: 'Energy overview', version: 1, isFolder: false, folder: null });
    expect(created.widgets.map((w) => w.kind)).toEqual(['timeseries', 'latest', 'siteSummary', 'ticketList']);
    expect(created.layouts.lg).toHaveLength(4);
    expect((await admin.get(`/iotapp/dashboards/${created.id}/versions/`)).json().totalCount).toBe(1);
  });

  it('validates layouts, frames and widget limits', async () => {
    const unknownWidget = dashboardBody({ name: 'Bad', genIds: [genA.id] });
    unknownWidget.layouts.lg.push({ i: 'ghost', x: 0, y: 0, w: 2, h: 2 });
    const r1 = await admin.post('/iotapp/dashboards/', unknownWidget);
    expect(r1.statusCode).toBe(400);
    expect(r1.body).toContain('A layout item refers to a widget that does not exist');
    const r2 = await admin.post('/iotapp/dashboards/', { name: 'Frame', layouts: { lg: [], sm: [], src: 'http://example.com' } });
    expect(r2.body).toContain('Enter an https:// address');
    const frame = await admin.post('/iotapp/dashboards/', {
      name: 'Frame',
      layouts: { lg: [], sm: [], src: 'https://example.com/report' },
    });
    expect(frame.statusCode, frame.body).toBe(201);
    expect(frame.json().layouts.src).toBe('https://example.com/report');
    const wide = await admin.post('/iotapp/dashboards/', {
      name: 'Wide',
      widgets: [{ id: 'w', kind: 'timeseries', deviceIds: [1, 2, 3, 4, 5], keys: ['a', 'b', 'c', 'd', 'e'] }],
    });
    expect(wide.statusCode).toBe(400);
    const outside = await admin.post('/iotapp/dashboards/', {
      name: 'Outside',
      widgets: [{ id: 'w', kind: 'siteMap' }],
      layouts: { lg: [{ i: 'w', x: 10, y: 0, w: 4, h: 2 }], sm: [] },
    });
    expect(outside.body).toContain('A layout item lies outside the grid');
    expect((await admin.post('/iotapp/dashboards/', { name: 'x'.repeat(121) })).statusCode).toBe(400);
  });

  it('lists dashboards and the user dashboards of the menu', async () => {
    const list = await viewer.get('/iotapp/dashboards/?limit=50');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().contents.map((d: { id: number }) => d.id)).toContain(created.id);
    const mine = await viewer.get('/iotapp/user-dashboards/');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().contents.map((d: { id: number }) => d.id)).toContain(created.id);
    expect((await adminB.get('/iotapp/user-dashboards/')).json().contents).toEqual([]);
  });

  it('updates (new version), lists versions, and restores an old version as a new one', async () => {
    const body = dashboardBody({ name: 'Energy overview v2', genIds: [genA.id] });
    const res = await admin.put(`/iotapp/dashboards/${created.id}/`, { ...body, note: 'renamed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().version).toBe(2);
    const versions = (await admin.get(`/iotapp/dashboards/${created.id}/versions/`)).json();
    expect(versions.contents.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const v1 = await admin.get(`/iotapp/dashboards/${created.id}/versions/1/`);
    expect(v1.json().name).toBe('Energy overview');
    const restored = await admin.post(`/iotapp/dashboards/${created.id}/versions/1/restore/`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ name: 'Energy overview', version: 3 });
    const after = (await admin.get(`/iotapp/dashboards/${created.id}/versions/`)).json();
    expect(after.contents[0]).toMatchObject({ version: 3, restoredFrom: 1, note: 'Restored from version 1' });
    expect((await admin.post(`/iotapp/dashboards/${created.id}/versions/99/restore/`)).statusCode).toBe(404);
  });

  it('moves a dashboard into a folder at a position and shows the folder path', async () => {
    const folder = (await admin.post('/iotapp/dashboards/folders/', { name: 'Boards' })).json();
    const other = (await admin.post('/iotapp/dashboards/', { name: 'First', folderId: folder.id })).json();
    const res = await admin.post(`/iotapp/dashboards/${created.id}/move/`, { parentId: folder.id, index: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ folder: folder.id, parentId: folder.id, index: 0 });
    const opened = (await admin.get(`/iotapp/dashboards/folders/${folder.id}/`)).json();
    expect(opened.dashboards.map((d: { id: number }) => d.id)).toEqual([created.id, other.id]);
    expect((await admin.get(`/iotapp/dashboards/${created.id}/`)).json().path).toEqual([{ id: folder.id, name: 'Boards' }]);
    expect((await admin.post(`/iotapp/dashboards/${created.id}/move/`, { parentId: 999_999 })).statusCode).toBe(400);
  });

  it('lets a viewer only view, an operator edit their own, and hides everything from another tenant', async () => {
    expect((await viewer.post('/iotapp/dashboards/', { name: 'Nope' })).statusCode).toBe(403);
    expect((await viewer.put(`/iotapp/dashboards/${created.id}/`, { name: 'Nope' })).statusCode).toBe(403);
    const own = await field.post('/iotapp/dashboards/', { name: 'My board' });
    expect(own.statusCode, own.body).toBe(201);
    expect((await field.put(`/iotapp/dashboards/${own.json().id}/`, { name: 'My board 2' })).statusCode).toBe(200);
    expect((await field.delete(`/iotapp/dashboards/${own.json().id}/`)).statusCode).toBe(204);
    expect((await field.delete(`/iotapp/dashboards/${created.id}/`)).statusCode).toBe(403);
    for (const url of [
      `/iotapp/dashboards/${created.id}/`,
      `/iotapp/dashboards/${created.id}/versions/`,
      `/iotapp/dashboards/${created.id}/versions/1/`,
    ])
      expect((await adminB.get(url)).statusCode).toBe(404);
    expect((await adminB.put(`/iotapp/dashboards/${created.id}/`, { name: 'Taken' })).statusCode).toBe(404);
    expect((await adminB.delete(`/iotapp/dashboards/${created.id}/`)).statusCode).toBe(404);
    expect((await adminB.post(`/iotapp/dashboards/${created.id}/versions/1/restore/`)).statusCode).toBe(404);
    const res = await data(adminB, { dashboardId: created.id, widgetId: 'trend' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('DG-NORTH');
  });
});

describe('audience', () => {
  const menuOf = async (client: TestClient) =>
    ((await client.get('/iotapp/user-dashboards/')).json().contents as Array<{ id: number }>).map((d) => d.id);
  const audience = (settings: Record<string, unknown>) => ({
    config: { settings: { showInMenu: true, showOnHome: false, roles: [], groups: [], ...settings } },
  });

  it('puts a dashboard in the navigation of the groups and roles chosen, and nobody else', async () => {
    const groups = await admin.get('/iotapp/dashboards/audience/');
    expect(groups.statusCode, groups.body).toBe(200);
    const byName = new Map((groups.json().groups as Array<{ id: number; name: string }>).map((g) => [g.name, g.id]));
    const viewers = byName.get('Viewers') as number;
    expect(viewers).toBeTypeOf('number');
    // a new dashboard is in nobody's navigation until its editor chooses so
    const plain = (await admin.post('/iotapp/dashboards/', { name: 'Not in the navigation' })).json();
    expect(plain.config.settings).toMatchObject({ showInMenu: false, roles: [], groups: [] });
    expect(await menuOf(viewer)).not.toContain(plain.id);

    const made = await admin.post('/iotapp/dashboards/', { name: 'For viewers', ...audience({ groups: [viewers] }) });
    expect(made.statusCode, made.body).toBe(201);
    const forViewers = made.json();
    expect(forViewers.config.settings.groups).toEqual([viewers]);
    expect(await menuOf(viewer)).toContain(forViewers.id);
    // the Operators group's field executive neither has it in the navigation nor opens it
    expect(await menuOf(field)).not.toContain(forViewers.id);
    expect((await field.get(`/iotapp/dashboards/${forViewers.id}/`)).statusCode).toBe(404);
    expect((await field.get('/iotapp/dashboards/?limit=100')).json().contents.map((d: { id: number }) => d.id)).not.toContain(
      forViewers.id,
    );

    // a role added to the audience brings its users in too
    const both = await admin.put(`/iotapp/dashboards/${forViewers.id}/`, {
      name: 'For viewers',
      ...audience({ groups: [viewers], roles: ['fieldexecutive'] }),
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(await menuOf(field)).toContain(forViewers.id);
    expect(await menuOf(viewer)).toContain(forViewers.id);

    const entries = await entriesOf(admin, 'dashboard', forViewers.id);
    expect(entries.map((e) => e.action)).toEqual(['dashboard.create', 'dashboard.update']);
    expect(entries[0]?.after).toMatchObject({ inNavigation: true, groups: [viewers], roles: [] });
    expect(entries[1]?.after).toMatchObject({ groups: [viewers], roles: ['fieldexecutive'] });
  });

  it("refuses groups that are not the account's, repeated, or too many, in words", async () => {
    const otherTenant = (await adminB.get('/iotapp/dashboards/audience/')).json().groups[0].id as number;
    for (const groups of [[999_999], [otherTenant]]) {
      const res = await admin.post('/iotapp/dashboards/', { name: 'Nobody', ...audience({ groups }) });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(DASHBOARD_MESSAGES.groupUnknown);
    }
    const mine = (await admin.get('/iotapp/dashboards/audience/')).json().groups[0].id as number;
    const twice = await admin.post('/iotapp/dashboards/', { name: 'Twice', ...audience({ groups: [mine, mine] }) });
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('Choose each group once');
    const many = await admin.post('/iotapp/dashboards/', {
      name: 'Many',
      ...audience({ groups: Array.from({ length: 21 }, (_, i) => i + 1) }),
    });
    expect(many.statusCode).toBe(400);
    expect(many.body).toContain('Choose at most 20 groups');
    expect((await admin.post('/iotapp/dashboards/', { name: 'Bad', ...audience({ groups: ['x'] }) })).statusCode).toBe(400);
    // the list to choose from is for those who make dashboards
    expect((await viewer.get('/iotapp/dashboards/audience/')).statusCode).toBe(403);
    expect((await field.get('/iotapp/dashboards/audience/')).statusCode).toBe(200);
  });
});

describe('components', () => {
  it('creates a component, places it on dashboards, runs it, and refuses to delete it while placed', async () => {
    const res = await admin.post('/iotapp/dashboards/components/', {
      name: 'North fuel',
      widget: { id: 'c', kind: 'latest', deviceId: genA.id, key: 'fuel', display: 'gauge', min: 0, max: 100 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const component = res.json();
    const nested = await admin.post('/iotapp/dashboards/components/', {
      name: 'Nested',
      widget: { id: 'n', kind: 'component', componentId: component.id },
    });
    expect(nested.statusCode).toBe(400);
    const board = await admin.post('/iotapp/dashboards/', {
      name: 'With component',
      widgets: [{ id: 'comp', kind: 'component', componentId: component.id }],
      layouts: { lg: [{ i: 'comp', x: 0, y: 0, w: 4, h: 4 }], sm: [{ i: 'comp', x: 0, y: 0, w: 4, h: 4 }] },
    });
    expect(board.statusCode, board.body).toBe(201);
    expect(board.json().components.map((c: { id: number }) => c.id)).toEqual([component.id]);
    expect((await admin.get(`/iotapp/dashboards/components/${component.id}/`)).json().usedBy).toBe(1);
    const run = await data(admin, { dashboardId: board.json().id, widgetId: 'comp' });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toMatchObject({ componentId: component.id, data: { kind: 'latest', deviceLabel: 'DG-NORTH', key: 'fuel' } });
    expect((await admin.delete(`/iotapp/dashboards/components/${component.id}/`)).statusCode).toBe(409);
    const renamed = await admin.put(`/iotapp/dashboards/components/${component.id}/`, {
      name: 'North fuel gauge',
      widget: { id: 'c', kind: 'latest', deviceId: genA.id, key: 'fuel', display: 'gauge' },
    });
    expect(renamed.json().name).toBe('North fuel gauge');
    expect((await admin.get('/iotapp/dashboards/components/')).json().totalCount).toBeGreaterThanOrEqual(1);
    expect((await adminB.get(`/iotapp/dashboards/components/${component.id}/`)).statusCode).toBe(404);
    const foreign = await adminB.post('/iotapp/dashboards/', {
      name: 'Steal',
      widgets: [{ id: 'x', kind: 'component', componentId: component.id }],
    });
    expect(foreign.statusCode).toBe(400);
    expect((await admin.delete(`/iotapp/dashboards/${board.json().id}/`)).statusCode).toBe(204);
    expect((await admin.delete(`/iotapp/dashboards/components/${component.id}/`)).statusCode).toBe(204);
  });
});

describe('widget data', () => {
  const series = (deviceIds: number[], extra: Record<string, unknown> = {}) => ({
    widget: { id: 'ts', kind: 'timeseries', deviceIds, keys: ['fuel'], range: { kind: 'relative', lastMs: 86_400_000 }, ...extra },
  });

  it('bounds raw points per series and aggregates into at most that many buckets', async () => {
    const raw = await data(admin, series([genA.id]));
    expect(raw.statusCode, raw.body).toBe(200);
    const body = raw.json() as WidgetDataResponse;
    if (body.data.kind !== 'timeseries') throw new Error('kind');
    expect(body.data.series[0]?.points.length).toBe(1000);
    expect(body.data.series[0]?.truncated).toBe(true);
    const agg = (await data(admin, series([genA.id], { agg: 'avg', interval: 1 }))).json() as WidgetDataResponse;
    if (agg.data.kind !== 'timeseries') throw new Error('kind');
    expect(agg.data.interval).toBeGreaterThanOrEqual(87);
    expect(agg.data.series[0]?.points.length).toBeLessThanOrEqual(1000);
  });

  it("never gives a site-limited user another site's rows", async () => {
    // a widget bound to another site's device says so plainly, without its rows or its name
    const other = await data(field, series([genB.id]));
    expect(other.statusCode).toBe(200);
    expect(other.json().data).toEqual({ kind: 'unavailable', reason: DASHBOARD_MESSAGES.outsideYourSites });
    expect(other.body).not.toContain('DG-SOUTH');
    const latest = await data(field, { widget: { id: 'l', kind: 'latest', deviceId: genB.id, key: 'fuel' } });
    expect(latest.json().data).toEqual({ kind: 'unavailable', reason: DASHBOARD_MESSAGES.outsideYourSites });
    // to an administrator, who sees every site, a device that is not there is simply not found
    expect((await data(admin, { widget: { id: 'l', kind: 'latest', deviceId: 999_999, key: 'fuel' } })).statusCode).toBe(404);
    const summary = (await data(field, { widget: { id: 's', kind: 'siteSummary' } })).json();
    expect(summary.data.sites).toBe(1);
    expect(summary.data.rows.map((r: { type: string; total: number }) => [r.type, r.total])).toEqual([
      ['GENERATOR', 1],
      ['UPS', 1],
    ]);
    const asked = (await data(field, { widget: { id: 's', kind: 'siteSummary', siteIds: [siteB.id] } })).json();
    expect(asked.data.rows).toEqual([]);
    const tickets = (await data(field, { widget: { id: 't', kind: 'ticketList' } })).json();
    expect(tickets.data.rows.map((r: { title: string }) => r.title)).toEqual(['North outage']);
    const counters = (await data(field, { widget: { id: 'c', kind: 'ticketCounters', statuses: ['OPEN'] } })).json();
    expect(counters.data.counts).toEqual([expect.objectContaining({ status: 'OPEN', count: 1 })]);
    const map = (await data(field, { widget: { id: 'm', kind: 'siteMap' } })).json();
    expect(map.data.sites.map((s: { name: string }) => s.name)).toEqual(['Dash North']);
    const adminMap = (await data(admin, { widget: { id: 'm', kind: 'siteMap' } })).json();
    expect(adminMap.data.sites.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['Dash North', 'Dash South']));
    const alarms = await data(field, { widget: { id: 'a', kind: 'alarmList', state: null } });
    expect(alarms.statusCode, alarms.body).toBe(200);
    const forms = await data(field, { widget: { id: 'f', kind: 'formResponses', formId: 1 } });
    expect(forms.json().data.kind).toBe('unavailable');
  });

  it('filters ticket widgets by a chosen time range and refuses a bad range', async () => {
    const now = clock.now().getTime();
    const past = await data(admin, {
      widget: { id: 't', kind: 'ticketList' },
      range: { startTs: now - 10 * 86_400_000, endTs: now - 9 * 86_400_000 },
    });
    expect(past.json().data.rows).toEqual([]);
    const current = await data(admin, {
      widget: { id: 't', kind: 'ticketList' },
      range: { startTs: now - 3_600_000, endTs: now + 3_600_000 },
    });
    expect(current.json().data.totalCount).toBeGreaterThanOrEqual(2);
    const bad = await data(admin, { widget: { id: 't', kind: 'ticketList' }, range: { startTs: now, endTs: now - 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Please choose an end date greater than the start date');
  });

  it('answers the widgets of a saved dashboard in one batch, as each would be answered alone', async () => {
    const body = {
      name: 'Batch board',
      widgets: [
        { id: 'north', kind: 'timeseries', deviceIds: [genA.id], keys: ['fuel'], range: { kind: 'relative', lastMs: 86_400_000 } },
        { id: 'south', kind: 'latest', deviceId: genB.id, key: 'fuel' },
        { id: 'tickets', kind: 'ticketList' },
        { id: 'forms', kind: 'formResponses', formId: 1 },
      ],
    };
    const created = await admin.post('/iotapp/dashboards/', body);
    expect(created.statusCode, created.body).toBe(201);
    const dashboardId = created.json().id as number;
    const widgetIds = ['north', 'south', 'tickets', 'forms', 'gone'];
    const batch = await field.post('/iotapp/dashboards/widget-data/batch/', { dashboardId, widgetIds });
    expect(batch.statusCode, batch.body).toBe(200);
    const answers = new Map(
      (batch.json().contents as Array<{ widgetId: string; answer: WidgetDataResponse | null }>).map((c) => [c.widgetId, c.answer]),
    );
    expect([...answers.keys()]).toEqual(widgetIds);
    // the same answers as one by one, within the viewer's scope: South's device, the form responses and an unknown
    // widget have none (the widget then asks alone and shows the refusal)
    for (const widgetId of ['north', 'tickets']) {
      const alone = await data(field, { dashboardId, widgetId });
      expect(alone.statusCode).toBe(200);
      // a relative range ends at the time of the request
      const timeless = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x) => (k === 'startTs' || k === 'endTs' ? undefined : x)));
      expect(timeless(answers.get(widgetId))).toEqual(timeless(alone.json()));
    }
    // what the viewer may not see is answered plainly in the batch, as alone: nothing to ask again
    const south = await data(field, { dashboardId, widgetId: 'south' });
    expect(south.json().data).toEqual({ kind: 'unavailable', reason: DASHBOARD_MESSAGES.outsideYourSites });
    expect(answers.get('south')?.data).toEqual(south.json().data);
    expect(answers.get('forms')?.data.kind).toBe('unavailable');
    expect(answers.get('gone')).toBeNull();
    expect(batch.body).not.toContain('DG-SOUTH');
    // another tenant's dashboard, too many widgets, and a viewer without dashboards are refused outright
    expect((await adminB.post('/iotapp/dashboards/widget-data/batch/', { dashboardId, widgetIds })).statusCode).toBe(404);
    const many = Array.from({ length: 25 }, (_, i) => `w${i}`);
    expect((await admin.post('/iotapp/dashboards/widget-data/batch/', { dashboardId, widgetIds: many })).statusCode).toBe(400);
    expect((await admin.post('/iotapp/dashboards/widget-data/batch/', { dashboardId, widgetIds: [] })).statusCode).toBe(400);
  });

  it('refuses a viewer without the permission of the data, and an unknown widget', async () => {
    const noDash = await data(admin, { dashboardId: 999_999, widgetId: 'x' });
    expect(noDash.statusCode).toBe(404);
    const viewerForm = await data(viewer, { widget: { id: 'f', kind: 'formResponses', formId: 1 } });
    expect(viewerForm.json().data).toEqual({ kind: 'unavailable', reason: DASHBOARD_MESSAGES.notForYou });
  });
});

describe('route table', () => {
  it("refuses another tenant's dashboards, folders, components, versions and links on every path-parameter route", async () => {
    const failures: string[] = [];
    for (const [route, fixture] of Object.entries(dashboardsObjectRoutes)) {
      const [method, url] = route.split(' ') as [string, string];
      const { params, payload } = await fixture(t);
      const path = url.replace(/:(\w+)/g, (_, name: string) => String(params[name]));
      const res = await adminB.request({ method: method as 'GET', url: path, payload: payload as never });
      if (![403, 404].includes(res.statusCode)) failures.push(`${route}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
