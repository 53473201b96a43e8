import { randomUUID } from 'node:crypto';
import type { RlsCondition, Widget } from '@sitewatch/contracts';
import { createLinkKeyRing } from '../modules/dashboards/link-keys.ts';
import * as repo from '../modules/dashboards/repository.ts';
import type { Db } from '../platform/db.ts';
import type { Seeder } from './seeder.ts';

/**
 * Demo dashboards: an energy dashboard (generator and meter trends, fuel gauges), a site operations wall with
 * camera tiles, a helpdesk view (ticket counters and list), folders to hold them, one component (a fuel gauge placed
 * on two dashboards), and an analytics dashboard shared by one link limited to one customer's sites, whose URL
 * the start-up banner prints.
 */

export const DEMO_LINK_LABEL = 'Shared energy report';

type Item = { i: string; x: number; y: number; w: number; h: number };
/** Widgets laid out two per row on the wide grid and one per row on the small one. */
function layoutsOf(widgets: Widget[], sizes: Record<string, { w: number; h: number }> = {}) {
  const lg: Item[] = [];
  const sm: Item[] = [];
  let x = 0;
  let y = 0;
  let rowH = 0;
  let ySm = 0;
  for (const w of widgets) {
    const size = sizes[w.id] ?? { w: 6, h: 4 };
    if (x + size.w > 12) {
      x = 0;
      y += rowH;
      rowH = 0;
    }
    lg.push({ i: w.id, x, y, w: size.w, h: size.h });
    x += size.w;
    rowH = Math.max(rowH, size.h);
    sm.push({ i: w.id, x: 0, y: ySm, w: 4, h: size.h });
    ySm += size.h;
  }
  return { lg, sm, src: null };
}

const settings = (showOnHome: boolean) => ({
  showInMenu: true,
  showOnHome,
  roles: [] as string[],
  groups: [] as number[],
  ticketAlias: null,
  refreshInterval: 50,
});

async function addDashboard(
  db: Db,
  tenantId: number,
  userId: number,
  v: {
    name: string;
    folderId: number | null;
    type: 'DASHBOARD' | 'ANALYTICS';
    home: boolean;
    widgets: Widget[];
    sizes?: Record<string, { w: number; h: number }>;
  },
) {
  const idx = await repo.nextIndex(db, tenantId, v.folderId);
  const config = { type: v.type, titleAsBreadCrumb: false, settings: settings(v.home) };
  const content = { name: v.name, type: v.type, config, layouts: layoutsOf(v.widgets, v.sizes), widgets: v.widgets };
  const { id } = await repo.insertDashboard(db, tenantId, userId, idx, { ...content, folderId: v.folderId });
  await repo.insertVersion(db, { tenantId, dashboardId: id, version: 1, ...content, note: 'Demo', restoredFrom: null, userId });
  return id;
}

export const dashboardsSeeder: Seeder = {
  name: 'dashboards',
  async run({ db, tenantId, log }) {
    const admin = await db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('username', '=', 'customeradmin')
      .executeTakeFirst();
    if (!admin) return;
    const devicesOf = (type: string, limit: number) =>
      db
        .selectFrom('devices')
        .select(['id', 'asset_id'])
        .where('tenant_id', '=', tenantId)
        .where('type', '=', type)
        .where('asset_id', 'is not', null)
        .orderBy('id')
        .limit(limit)
        .execute();
    const gensets = await devicesOf('GENERATOR', 4);
    const meters = await devicesOf('METER', 4);
    const cameras = await db
      .selectFrom('video_cameras')
      .select('device_id')
      .where('tenant_id', '=', tenantId)
      .orderBy('device_id')
      .limit(4)
      .execute();
    const form = await db.selectFrom('form_templates').select('id').where('tenant_id', '=', tenantId).orderBy('id').executeTakeFirst();

    const folder = async (name: string, parentId: number | null) =>
      (
        await repo.insertFolder(db, {
          tenantId,
          name,
          parentId,
          idx: await repo.nextIndex(db, tenantId, parentId),
          config: { titleAsBreadCrumb: false },
          userId: admin.id,
        })
      ).id;
    const energy = await folder('Energy', null);
    const operations = await folder('Operations', null);
    const analytics = await folder('Customer reports', energy);

    const gauge = gensets[0]
      ? await repo.insertComponent(db, tenantId, admin.id, {
          name: 'Fuel gauge',
          widget: {
            id: 'fuel',
            kind: 'latest',
            title: 'Fuel level',
            deviceId: gensets[0].id,
            key: 'fuelLevel',
            display: 'gauge',
            min: 0,
            max: 100,
            unit: '%',
          },
          size: { w: 3, h: 4 },
        })
      : null;
    const day = { kind: 'relative' as const, lastMs: 86_400_000 };
    const energyWidgets: Widget[] = [];
    if (gensets.length)
      energyWidgets.push({
        id: 'fuel-trend',
        kind: 'timeseries',
        title: 'Generator fuel level',
        deviceIds: gensets.map((g) => g.id),
        keys: ['fuelLevel'],
        agg: 'avg',
        interval: null,
        range: day,
        chart: 'line',
      });
    if (meters.length)
      energyWidgets.push({
        id: 'meter-power',
        kind: 'timeseries',
        title: 'Meter power',
        deviceIds: meters.map((m) => m.id),
        keys: ['powerKw'],
        agg: 'avg',
        interval: null,
        range: day,
        chart: 'area',
      });
    if (gauge) energyWidgets.push({ id: 'fuel-gauge', kind: 'component', title: '', componentId: gauge.id });
    for (const [i, g] of gensets.slice(1, 3).entries())
      energyWidgets.push({
        id: `battery-${i}`,
        kind: 'latest',
        title: 'Battery voltage',
        deviceId: g.id,
        key: 'batteryVoltage',
        display: 'value',
        min: null,
        max: null,
        unit: 'V',
      });
    if (meters[0])
      energyWidgets.push({
        id: 'energy-now',
        kind: 'latest',
        title: 'Energy',
        deviceId: meters[0].id,
        key: 'energyKwh',
        display: 'value',
        min: null,
        max: null,
        unit: 'kWh',
      });
    energyWidgets.push({
      id: 'types',
      kind: 'siteSummary',
      title: 'Devices by type',
      deviceTypes: ['GENERATOR', 'METER', 'UPS'],
      siteIds: [],
    });
    await addDashboard(db, tenantId, admin.id, {
      name: 'Energy dashboard',
      folderId: energy,
      type: 'DASHBOARD',
      home: true,
      widgets: energyWidgets,
      sizes: {
        'fuel-trend': { w: 6, h: 6 },
        'meter-power': { w: 6, h: 6 },
        'fuel-gauge': { w: 3, h: 4 },
        'battery-0': { w: 3, h: 4 },
        'battery-1': { w: 3, h: 4 },
        'energy-now': { w: 3, h: 4 },
      },
    });

    const wall: Widget[] = [
      { id: 'map', kind: 'siteMap', title: 'Sites', siteIds: [] },
      { id: 'alarms', kind: 'alarmList', title: 'Active alarms', severities: [], state: 'ACTIVE', siteIds: [], limit: 20 },
      ...cameras.map((c, i): Widget => ({ id: `cam-${i}`, kind: 'camera', title: '', cameraId: c.device_id })),
    ];
    await addDashboard(db, tenantId, admin.id, {
      name: 'Site operations wall',
      folderId: operations,
      type: 'DASHBOARD',
      home: false,
      widgets: wall,
      sizes: Object.fromEntries(cameras.map((_, i) => [`cam-${i}`, { w: 3, h: 3 }])),
    });

    const helpdesk: Widget[] = [
      {
        id: 'counters',
        kind: 'ticketCounters',
        title: 'Tickets',
        types: [],
        statuses: ['OPEN', 'INPROGRESS', 'RESOLVED', 'CLOSED'],
        siteIds: [],
      },
      {
        id: 'open',
        kind: 'ticketList',
        title: 'Open tickets',
        types: [],
        statuses: ['OPEN', 'INPROGRESS'],
        priorities: [],
        siteIds: [],
        limit: 20,
      },
      {
        id: 'escalated',
        kind: 'ticketList',
        title: 'Escalated',
        types: ['TICKET'],
        statuses: ['ESCALATE', 'OVERDUE'],
        priorities: [],
        siteIds: [],
        limit: 10,
      },
      ...(form ? [{ id: 'forms', kind: 'formResponses', title: 'Form responses', formId: form.id, days: 30 } as Widget] : []),
    ];
    await addDashboard(db, tenantId, admin.id, {
      name: 'Helpdesk view',
      folderId: operations,
      type: 'DASHBOARD',
      home: true,
      widgets: helpdesk,
      sizes: { counters: { w: 12, h: 2 } },
    });

    // the shared link shows one customer's sites (or the first few sites when the estate has no customers)
    const customer = await db
      .selectFrom('assets')
      .select('customer_id')
      .where('tenant_id', '=', tenantId)
      .where('customer_id', 'is not', null)
      .orderBy('customer_id')
      .executeTakeFirst();
    const sites = await db.selectFrom('assets').select('id').where('tenant_id', '=', tenantId).orderBy('id').limit(5).execute();
    const conditions: RlsCondition[] = customer?.customer_id
      ? [{ dataset: 'sites', column: 'customerId', operator: 'in', values: [customer.customer_id] }]
      : [{ dataset: 'sites', column: 'id', operator: 'in', values: sites.map((s) => s.id) }];
    let shown = db
      .selectFrom('devices as d')
      .innerJoin('assets as a', 'a.id', 'd.asset_id')
      .select('d.id')
      .where('d.tenant_id', '=', tenantId)
      .where('d.type', '=', 'GENERATOR');
    shown = customer?.customer_id
      ? shown.where('a.customer_id', '=', customer.customer_id)
      : shown.where(
          'a.id',
          'in',
          sites.map((s) => s.id),
        );
    const reportGensets = await shown.orderBy('d.id').limit(4).execute();
    const report: Widget[] = [
      ...(reportGensets.length
        ? [
            {
              id: 'fuel',
              kind: 'timeseries',
              title: 'Fuel level',
              deviceIds: reportGensets.map((g) => g.id),
              keys: ['fuelLevel'],
              agg: 'avg',
              interval: null,
              range: day,
              chart: 'line',
            } as Widget,
          ]
        : []),
      { id: 'types', kind: 'siteSummary', title: 'Devices by type', deviceTypes: [], siteIds: [] },
      {
        id: 'counters',
        kind: 'ticketCounters',
        title: 'Tickets',
        types: [],
        statuses: ['OPEN', 'INPROGRESS', 'RESOLVED', 'CLOSED'],
        siteIds: [],
      },
      { id: 'tickets', kind: 'ticketList', title: 'Latest tickets', types: [], statuses: [], priorities: [], siteIds: [], limit: 20 },
      { id: 'map', kind: 'siteMap', title: 'Sites', siteIds: [] },
    ];
    const reportId = await addDashboard(db, tenantId, admin.id, {
      name: 'Customer energy report',
      folderId: analytics,
      type: 'ANALYTICS',
      home: false,
      widgets: report,
    });

    const { active } = await createLinkKeyRing(db).kids();
    await repo.insertLink(db, {
      id: randomUUID(),
      tenantId,
      dashboardId: reportId,
      label: DEMO_LINK_LABEL,
      conditions,
      expiresAt: new Date(Date.now() + 365 * 86_400_000),
      kid: active,
      userId: admin.id,
    });
    log.info(`demo dashboards: ${gensets.length} gensets, ${meters.length} meters, ${cameras.length} cameras`);
  },
};
