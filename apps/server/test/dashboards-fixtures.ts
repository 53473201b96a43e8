import { sql } from 'kysely';
import type { TestApp, TestClient } from './support/harness.ts';
import type { ObjectFixture } from './support/object-routes.ts';
import { makeSite } from './support/sites-factory.ts';

/** Dashboards, folders, components and analytics links of tenant A for the tests and the route-walking test. */

/** Tenant A's Operators (the field executive's group) get these permissions, beside those they have. */
export async function grantOperators(t: TestApp, grants: Array<{ codename: string; name: string }>) {
  const group = await t.db
    .selectFrom('groups')
    .select(['id', 'permissions'])
    .where('tenant_id', '=', t.tenantA)
    .where('name', '=', 'Operators')
    .executeTakeFirstOrThrow();
  const permissions = group.permissions as Array<{ codename: string; name: string }>;
  const extra = grants.filter((g) => !permissions.some((p) => p.codename === g.codename));
  await t.db
    .updateTable('groups')
    .set({ permissions: JSON.stringify([...permissions, ...extra]) })
    .where('id', '=', group.id)
    .execute();
}

/** Tenant A's Operators may share dashboards by link. */
export const letOperatorsShare = (t: TestApp) => grantOperators(t, [{ codename: 'share_dashboard', name: 'Can share' }]);

/** A dashboard body with a chart, a gauge, a site summary and a ticket list on both layouts. */
export function dashboardBody(opts: { name: string; genIds: number[]; type?: 'DASHBOARD' | 'ANALYTICS'; folderId?: number | null }) {
  const widgets = [
    {
      id: 'trend',
      kind: 'timeseries',
      title: 'Fuel',
      deviceIds: opts.genIds,
      keys: ['fuel'],
      range: { kind: 'relative', lastMs: 86_400_000 },
    },
    {
      id: 'gauge',
      kind: 'latest',
      title: 'Fuel now',
      deviceId: opts.genIds[0],
      key: 'fuel',
      display: 'gauge',
      min: 0,
      max: 100,
      unit: '%',
    },
    { id: 'summary', kind: 'siteSummary', title: 'Devices' },
    { id: 'tickets', kind: 'ticketList', title: 'Tickets', limit: 10 },
  ];
  const lg = widgets.map((w, i) => ({ i: w.id, x: (i % 2) * 6, y: Math.floor(i / 2) * 4, w: 6, h: 4 }));
  const sm = widgets.map((w, i) => ({ i: w.id, x: 0, y: i * 4, w: 4, h: 4 }));
  return {
    name: opts.name,
    folderId: opts.folderId ?? null,
    config: { type: opts.type ?? 'DASHBOARD', titleAsBreadCrumb: false, settings: { showInMenu: true, showOnHome: true } },
    layouts: { lg, sm, src: null as string | null },
    widgets,
  };
}

/** `count` readings of a key, one a minute up to `endMs`, written straight into the history. */
export async function seedTelemetry(t: TestApp, deviceId: number, key: string, count: number, endMs: number, tenantId = t.tenantA) {
  const rows = Array.from({ length: count }, (_, i) => ({
    tenant_id: tenantId,
    device_id: deviceId,
    key,
    ts: new Date(endMs - (count - i) * 60_000),
    num: 40 + (i % 30),
    txt: null,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await t.db
      .insertInto('telemetry')
      .values(rows.slice(i, i + 500))
      .execute();
  await sql`insert into telemetry_latest (tenant_id, device_id, key, ts, value) values (${tenantId}, ${deviceId}, ${key}, ${new Date(endMs - 60_000)}, ${JSON.stringify(69)}::jsonb)
    on conflict do nothing`.execute(t.db);
}

const admins = new WeakMap<TestApp, Promise<TestClient>>();
const made = new WeakMap<TestApp, Promise<{ dashboardId: number; folderId: number; componentId: number; linkId: string }>>();
const adminOf = (t: TestApp) => {
  if (!admins.has(t)) admins.set(t, t.login('customeradmin'));
  return admins.get(t) as Promise<TestClient>;
};

function objects(t: TestApp) {
  if (!made.has(t))
    made.set(
      t,
      (async () => {
        const admin = await adminOf(t);
        await makeSite(admin);
        const folder = await admin.post('/iotapp/dashboards/folders/', { name: 'Fixture folder' });
        if (folder.statusCode !== 201) throw new Error(`folder fixture: ${folder.statusCode} ${folder.body}`);
        const dashboard = await admin.post('/iotapp/dashboards/', { name: 'Fixture board', config: { type: 'ANALYTICS' } });
        if (dashboard.statusCode !== 201) throw new Error(`dashboard fixture: ${dashboard.statusCode} ${dashboard.body}`);
        const component = await admin.post('/iotapp/dashboards/components/', {
          name: 'Fixture component',
          widget: { id: 'c', kind: 'siteMap' },
        });
        if (component.statusCode !== 201) throw new Error(`component fixture: ${component.statusCode} ${component.body}`);
        const link = await admin.post('/iotapp/analytics-links/', {
          dashboardId: dashboard.json().id,
          label: 'Fixture link',
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
          rls_conditions: [],
        });
        if (link.statusCode !== 201) throw new Error(`link fixture: ${link.statusCode} ${link.body}`);
        return { dashboardId: dashboard.json().id, folderId: folder.json().id, componentId: component.json().id, linkId: link.json().id };
      })(),
    );
  return made.get(t) as Promise<{ dashboardId: number; folderId: number; componentId: number; linkId: string }>;
}

const dashboard: ObjectFixture = async (t) => ({ params: { id: (await objects(t)).dashboardId }, payload: { name: 'Taken over' } });
const version: ObjectFixture = async (t) => ({ params: { id: (await objects(t)).dashboardId, version: 1 } });
const move: ObjectFixture = async (t) => ({ params: { id: (await objects(t)).dashboardId }, payload: { parentId: null } });
const folder: ObjectFixture = async (t) => ({ params: { id: (await objects(t)).folderId }, payload: { name: 'Taken over' } });
const folderMove: ObjectFixture = async (t) => ({ params: { id: (await objects(t)).folderId }, payload: { parentId: null } });
const component: ObjectFixture = async (t) => ({
  params: { id: (await objects(t)).componentId },
  payload: { name: 'Taken over', widget: { id: 'c', kind: 'siteMap' } },
});
const link: ObjectFixture = async (t) => ({ params: { id: (await objects(t)).linkId } });
/**
 * A camera tile's live video of tenant A: the walker sends no link token (a header), which is refused before anything
 * of the dashboard is read; the tests of the link matrix send valid, tampered and foreign tokens.
 */
const linkPlaylist: ObjectFixture = async (t) => ({ params: { dashboardId: (await objects(t)).dashboardId, widgetId: 'cam' } });
const linkMedia: ObjectFixture = async (t) => ({
  params: { dashboardId: (await objects(t)).dashboardId, widgetId: 'cam', run: 'abcdef12', file: 'init.mp4' },
});

export const dashboardsObjectRoutes: Record<string, ObjectFixture> = {
  'GET /iotapp/dashboards/:id/': dashboard,
  'PUT /iotapp/dashboards/:id/': dashboard,
  'DELETE /iotapp/dashboards/:id/': dashboard,
  'POST /iotapp/dashboards/:id/move/': move,
  'GET /iotapp/dashboards/:id/versions/': dashboard,
  'GET /iotapp/dashboards/:id/versions/:version/': version,
  'POST /iotapp/dashboards/:id/versions/:version/restore/': version,
  'GET /iotapp/dashboards/folders/:id/': folder,
  'PUT /iotapp/dashboards/folders/:id/': folder,
  'DELETE /iotapp/dashboards/folders/:id/': folder,
  'POST /iotapp/dashboards/folders/:id/move/': folderMove,
  'GET /iotapp/dashboards/components/:id/': component,
  'PUT /iotapp/dashboards/components/:id/': component,
  'DELETE /iotapp/dashboards/components/:id/': component,
  'POST /iotapp/analytics-links/:id/revoke/': link,
  'GET /iotapp/analytics-dashboard/:dashboardId/cameras/:widgetId/live.m3u8': linkPlaylist,
  'GET /iotapp/analytics-dashboard/:dashboardId/cameras/:widgetId/media/:run/:file': linkMedia,
};
