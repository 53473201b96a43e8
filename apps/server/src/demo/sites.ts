import { randomBytes } from 'node:crypto';
import { DEFAULT_TELEMETRY, type DeviceType } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../platform/db.ts';
import type { Random } from './random.ts';
import type { Seeder } from './seeder.ts';
import { ACCESS_EVENTS, ACME_CITIES, ALARM_PANEL_EVENTS, type DemoCity, HARDWARE, NORTHWIND_CITIES } from './sites-data.ts';

/**
 * The demo estate: customers, device templates per type and vendor, sites across real cities, and on every site a
 * router with the devices a site of its kind has (DVR with cameras and disks, alarm panel, generator, UPS, meters,
 * …). Statuses follow the router: a site whose router is offline has every device offline. The values stored in
 * `state` are each device's last known readings; the telemetry simulator moves them on from there.
 */

interface Plan {
  sites: number;
  cities: DemoCity[];
  customers: { name: string; email: string; city: string; country: string }[];
  /** Users of the tenant (username = role) and which sites each one is assigned. */
  assignments: { username: string; pick: (site: PlannedSite, index: number) => boolean }[];
}

interface PlannedSite {
  name: string;
  code: string;
  city: DemoCity;
  routerStatus: 'Online' | 'Offline' | 'Not yet connected';
}

const PLANS: Record<string, Plan> = {
  demo: {
    sites: 50,
    cities: NORTHWIND_CITIES,
    customers: [
      { name: 'Northwind Retail', email: 'retail-ops@northwind.example.com', city: 'Bengaluru', country: 'India' },
      { name: 'Northwind Banking', email: 'branch-security@northwind.example.com', city: 'Mumbai', country: 'India' },
      { name: 'Northwind Logistics', email: 'depots@northwind.example.com', city: 'Dubai', country: 'United Arab Emirates' },
    ],
    assignments: [
      { username: 'fieldexecutive', pick: (s) => s.city.city === 'Bengaluru' || s.city.city === 'Chennai' },
      { username: 'storemanager', pick: (_s, i) => i === 0 },
      { username: 'citylead', pick: (s) => s.city.city === 'Mumbai' },
      { username: 'areahead', pick: (s) => s.city.region === 'Maharashtra' },
      { username: 'regionalhead', pick: (s) => s.city.country === 'India' },
      { username: 'infraadmin', pick: (s) => s.city.country === 'Kenya' || s.city.country === 'United Arab Emirates' },
      { username: 'vendor', pick: (_s, i) => i % 7 === 3 },
      { username: 'customer', pick: (_s, i) => i < 5 },
    ],
  },
  acme: {
    sites: 16,
    cities: ACME_CITIES,
    customers: [
      { name: 'Acme Stores', email: 'stores@acme.example.com', city: 'New York', country: 'United States' },
      { name: 'Acme Warehousing', email: 'dc@acme.example.com', city: 'Berlin', country: 'Germany' },
    ],
    assignments: [
      { username: 'fieldexecutive', pick: (s) => s.city.country === 'United States' },
      { username: 'storemanager', pick: (_s, i) => i === 0 },
      { username: 'customer', pick: (_s, i) => i < 3 },
    ],
  },
};

type Status = PlannedSite['routerStatus'];
type State = Record<string, number | string | boolean>;

interface PlannedDevice {
  site: number;
  type: DeviceType;
  label: string;
  parent: PlannedDevice | null;
  status: Status;
  lastActivity: Date | null;
  state: State;
  metadata: Record<string, string | boolean>;
  templateKey: string;
  name: string;
  id?: number;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const between = (random: Random, min: number, max: number, digits = 1) => round(min + random.next() * (max - min), digits);

/** Plausible last readings of a device of the type (for the keys the type dashboards show). */
function readings(random: Random, type: DeviceType, extra: { cameras?: number } = {}): State {
  switch (type) {
    case 'GENERATOR': {
      const running = random.chance(0.2);
      return {
        running,
        fuelLevel: between(random, 15, 95, 0),
        batteryVoltage: between(random, 24.1, 27.4),
        outputPower: running ? between(random, 8, 40) : 0,
        runHours: between(random, 120, 8000, 0),
        coolantTemp: running ? between(random, 76, 90, 0) : between(random, 24, 34, 0),
      };
    }
    case 'UPS': {
      const onBattery = random.chance(0.05);
      return {
        inputVoltage: onBattery ? 0 : between(random, 221, 241, 0),
        outputVoltage: between(random, 228, 232, 0),
        batteryCharge: onBattery ? between(random, 40, 90, 0) : between(random, 92, 100, 0),
        load: between(random, 15, 70, 0),
        onBattery,
        runtimeMinutes: between(random, 12, 58, 0),
      };
    }
    case 'RECTIFIER':
      return {
        dcVoltage: between(random, 53.2, 54.6),
        dcCurrent: between(random, 10, 60),
        acInputVoltage: between(random, 220, 245, 0),
        modulesOk: random.int(2, 6),
        batteryTemp: between(random, 22, 35, 0),
      };
    case 'ALARMPANEL':
      return {
        armed: random.chance(0.6),
        zonesOpen: random.chance(0.8) ? 0 : random.int(1, 2),
        tamper: random.chance(0.02),
        acPower: random.chance(0.97),
        lastEvent: random.pick(ALARM_PANEL_EVENTS),
      };
    case 'METER':
      return {
        energyKwh: between(random, 1_000, 90_000, 0),
        powerKw: between(random, 2, 40),
        voltage: between(random, 228, 242, 0),
        current: between(random, 5, 60),
        powerFactor: between(random, 0.85, 0.99, 2),
      };
    case 'DVR':
      return { recording: random.chance(0.95), channels: extra.cameras ?? 4, hddStatus: random.chance(0.97) ? 'OK' : 'Full' };
    case 'CAMERA':
      return { videoLoss: random.chance(0.05), recording: random.chance(0.96) };
    case 'HDD':
      return {
        capacityGb: random.pick([1000, 2000, 4000, 6000]),
        usedPercent: between(random, 40, 99, 0),
        health: random.chance(0.95) ? 'OK' : 'Warning',
      };
    case 'ROUTER':
      return {
        signalDbm: between(random, -95, -55, 0),
        uptimeHours: between(random, 1, 2000, 0),
        wanIp: `10.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(2, 254)}`,
      };
    case 'SENSOR':
      return { temperature: between(random, 21, 34), humidity: between(random, 35, 70, 0) };
    case 'ETH':
      return { inputs: [1, 2, 3, 4].map((n) => `DI${n}:${random.chance(0.2) ? 1 : 0}`).join(' ') };
    case 'ACCESSCONTROL':
      return { doorOpen: random.chance(0.05), lastAccess: random.pick(ACCESS_EVENTS) };
    case 'RELAY':
      return { on: random.chance(0.5) };
  }
}

export const sitesSeeder: Seeder = {
  name: 'sites-devices',
  async run({ db, tenantId, slug, random, log }) {
    const plan = PLANS[slug];
    if (!plan) return;
    const now = Date.now();
    const customers = await db
      .insertInto('customers')
      .values(
        plan.customers.map((c) => ({
          tenant_id: tenantId,
          name: c.name,
          email: c.email,
          city: c.city,
          country: c.country,
          provision_key: randomBytes(12).toString('base64url'),
          provision_secret: randomBytes(18).toString('base64url'),
        })),
      )
      .returning('id')
      .execute();

    // One template per type and vendor, with the type's telemetry keys.
    const templateRows = Object.entries(HARDWARE).flatMap(([type, models]) =>
      models.map((m) => ({
        tenant_id: tenantId,
        name: `${m.vendor} ${m.model}`,
        type,
        vendor: m.vendor,
        model: m.model,
        description: `${m.vendor} ${m.model} as deployed at the sites`,
        telemetry: JSON.stringify(DEFAULT_TELEMETRY[type as DeviceType] ?? []),
        attributes: JSON.stringify({}),
      })),
    );
    const templates = await db.insertInto('device_templates').values(templateRows).returning(['id', 'type', 'vendor']).execute();
    const templateId = (key: string) => templates.find((t) => `${t.type}|${t.vendor}` === key)?.id ?? null;

    // Sites: spread over the cities, named after their neighbourhood, with a code per city.
    const sites: PlannedSite[] = [];
    const perCode = new Map<string, number>();
    const usedNames = new Set<string>();
    const siteRows = [];
    for (let i = 0; i < plan.sites; i++) {
      const city = plan.cities[i % plan.cities.length] as DemoCity;
      const n = (perCode.get(city.code) ?? 0) + 1;
      perCode.set(city.code, n);
      const locality = city.localities[(n - 1) % city.localities.length] as string;
      let name = `${city.city} ${locality}`;
      if (usedNames.has(name)) name = `${name} ${Math.ceil(n / city.localities.length)}`;
      usedNames.add(name);
      const code = `${city.code}-${String(n).padStart(3, '0')}`;
      const roll = random.next();
      const routerStatus: Status = roll < 0.84 ? 'Online' : roll < 0.95 ? 'Offline' : 'Not yet connected';
      sites.push({ name, code, city, routerStatus });
      siteRows.push({
        tenant_id: tenantId,
        customer_id: customers[i % customers.length]?.id ?? null,
        name,
        address: [city.country, city.region, city.city],
        latitude: round(city.lat + (random.next() - 0.5) * 0.08, 5),
        longitude: round(city.lng + (random.next() - 0.5) * 0.08, 5),
        metadata: JSON.stringify({ assetCode: code, merchantId: `M${String(400_000 + i * 37).padStart(7, '0')}` }),
      });
    }
    const assetIds = (await db.insertInto('assets').values(siteRows).returning('id').execute()).map((r) => r.id);

    // Devices, level by level so that children know their parents' ids.
    const levels: PlannedDevice[][] = [[], [], []];
    const add = (site: number, type: DeviceType, label: string, parent: PlannedDevice | null, extra: { cameras?: number } = {}) => {
      const siteStatus = (sites[site] as PlannedSite).routerStatus;
      let status: Status = siteStatus;
      if (siteStatus === 'Online' && parent) {
        const roll = random.next();
        status = roll < 0.93 ? 'Online' : roll < 0.99 ? 'Offline' : 'Not yet connected';
      }
      const hardware = random.pick(HARDWARE[type] ?? [{ vendor: 'Generic', model: type }]);
      const connected = status !== 'Not yet connected';
      const lastActivity = !connected
        ? null
        : status === 'Online'
          ? new Date(now - random.int(5, 300) * 1000)
          : new Date(now - random.int(1, 72) * 3_600_000);
      // Two draws once spent on a made-up alarm status, kept so that the estate drawn after them stays the same:
      // a device's alarm status comes from its alarms only (the demo's rules raise them from the readings).
      random.next();
      if (status === 'Offline') random.next();
      const device: PlannedDevice = {
        site,
        type,
        label,
        parent,
        status,
        lastActivity,
        state: connected ? readings(random, type, extra) : {},
        metadata: {
          muteDevice: random.chance(0.01),
          maintenance: random.chance(0.02),
          enableDevice: true,
          vendor: hardware.vendor,
          model: hardware.model,
          serialNumber: `${hardware.vendor.slice(0, 3).toUpperCase()}${random.int(100000, 999999)}`,
          firmware: `${random.int(1, 5)}.${random.int(0, 9)}.${random.int(0, 20)}`,
          ...(type === 'ROUTER' ? { ipAddress: `192.168.${random.int(1, 50)}.1` } : {}),
        },
        templateKey: `${type}|${hardware.vendor}`,
        name: parent ? `${parent.name}:${label}` : `${(sites[site] as PlannedSite).code}:${label}`,
      };
      const depth = parent ? (parent.parent ? 2 : 1) : 0;
      levels[depth]?.push(device);
      return device;
    };

    for (let s = 0; s < sites.length; s++) {
      const router = add(s, 'ROUTER', 'RTR-01', null);
      if (random.chance(0.9)) {
        const cameras = random.int(3, 6);
        const dvr = add(s, 'DVR', 'DVR-01', router, { cameras });
        for (let c = 1; c <= cameras; c++) add(s, 'CAMERA', `CAM-${String(c).padStart(2, '0')}`, dvr);
        for (let h = 1; h <= (random.chance(0.25) ? 2 : 1); h++) add(s, 'HDD', `HDD-0${h}`, dvr);
      }
      if (random.chance(0.8)) {
        const panel = add(s, 'ALARMPANEL', 'AP-01', router);
        if (random.chance(0.5)) add(s, 'SENSOR', 'PIR-01', panel);
      }
      const eth = random.chance(0.4) ? add(s, 'ETH', 'RTU-01', router) : null;
      if (random.chance(0.5)) add(s, 'GENERATOR', 'DG-01', eth ?? router);
      if (random.chance(0.7)) add(s, 'UPS', 'UPS-01', router);
      if (random.chance(0.3)) add(s, 'RECTIFIER', 'RECT-01', eth ?? router);
      if (eth || random.chance(0.6)) add(s, 'METER', 'EM-01', eth ?? router);
      if (eth && random.chance(0.5)) add(s, 'RELAY', 'RLY-01', eth);
      if (random.chance(0.3)) add(s, 'ACCESSCONTROL', 'ACS-01', router);
      if (random.chance(0.3)) add(s, 'SENSOR', 'TEMP-01', router);
    }

    for (const level of levels) {
      if (level.length === 0) continue;
      const rows = level.map((d) => ({
        tenant_id: tenantId,
        name: d.name,
        label: d.label,
        type: d.type,
        status: d.status,
        last_activity_at: d.lastActivity,
        asset_id: assetIds[d.site] as number,
        parent_id: d.parent?.id ?? null,
        is_parent: d.type === 'ROUTER' || d.type === 'DVR' || d.type === 'ETH',
        template_id: templateId(d.templateKey),
        access_token: randomBytes(15).toString('base64url'),
        metadata: JSON.stringify(d.metadata),
        state: JSON.stringify(d.state),
        state_updated_at: d.lastActivity,
      }));
      const ids = await db.insertInto('devices').values(rows).returning('id').execute();
      level.forEach((d, i) => {
        d.id = ids[i]?.id;
      });
    }
    await sql`update devices d set is_parent = true
      where d.tenant_id = ${tenantId} and exists (select 1 from devices c where c.parent_id = d.id)`.execute(db);

    await seedInventory(db, tenantId, random, customers[0]?.id ?? null);

    // Site assignments of the users whose roles do not see every site.
    const users = await db.selectFrom('users').select(['id', 'username']).where('tenant_id', '=', tenantId).execute();
    const links = plan.assignments.flatMap((a) => {
      const user = users.find((u) => u.username === a.username);
      if (!user) return [];
      return sites.flatMap((site, i) =>
        a.pick(site, i) ? [{ tenant_id: tenantId, user_id: user.id, asset_id: assetIds[i] as number }] : [],
      );
    });
    if (links.length)
      await db
        .insertInto('user_assets')
        .values(links)
        .onConflict((oc) => oc.doNothing())
        .execute();

    // The first camera of each site watches its alarm panel; sites in the same city back each other up.
    const all = levels.flat();
    const mappings = [];
    for (let s = 0; s < sites.length; s++) {
      const panel = all.find((d) => d.site === s && d.type === 'ALARMPANEL');
      const camera = all.find((d) => d.site === s && d.type === 'CAMERA');
      if (panel?.id && camera?.id) {
        mappings.push({
          tenant_id: tenantId,
          relation_type: 'CAMERA MAPPING',
          from_type: 'DEVICE',
          from_id: panel.id,
          to_type: 'DEVICE',
          to_id: camera.id,
        });
        mappings.push({
          tenant_id: tenantId,
          relation_type: 'CAMERA MAPPING',
          from_type: 'ASSET',
          from_id: assetIds[s] as number,
          to_type: 'DEVICE',
          to_id: camera.id,
        });
      }
      const sibling = sites.findIndex((other, j) => j > s && other.city.city === (sites[s] as PlannedSite).city.city);
      if (sibling > 0) {
        mappings.push({
          tenant_id: tenantId,
          relation_type: 'ASSET MAPPING',
          from_type: 'ASSET',
          from_id: assetIds[s] as number,
          to_type: 'ASSET',
          to_id: assetIds[sibling] as number,
        });
      }
      const ups = all.find((d) => d.site === s && d.type === 'UPS');
      const meter = all.find((d) => d.site === s && d.type === 'METER');
      if (ups?.id && meter?.id) {
        mappings.push({
          tenant_id: tenantId,
          relation_type: 'DEVICE MAPPING',
          from_type: 'DEVICE',
          from_id: ups.id,
          to_type: 'DEVICE',
          to_id: meter.id,
        });
      }
    }
    if (mappings.length) await db.insertInto('entity_mappings').values(mappings).execute();

    log.info(`${sites.length} sites and ${all.length} devices seeded for "${slug}"`);
  },
};

/** Spare hardware in the inventory (no site yet) and gateways that provisioned themselves, awaiting approval. */
async function seedInventory(db: Db, tenantId: number, random: Random, customerId: number | null) {
  const spare: { type: DeviceType; label: string }[] = [
    { type: 'UPS', label: 'SPARE-UPS-01' },
    { type: 'CAMERA', label: 'SPARE-CAM-01' },
    { type: 'CAMERA', label: 'SPARE-CAM-02' },
    { type: 'HDD', label: 'SPARE-HDD-01' },
    { type: 'ROUTER', label: 'SPARE-RTR-01' },
  ];
  const discovered = [0, 1, 2].map((i) => ({
    type: 'ROUTER' as DeviceType,
    label: `GW-${(0xa1c300 + random.int(0, 0xfff) + i).toString(16).toUpperCase()}`,
  }));
  const rows = [...spare.map((d) => ({ ...d, discovered: false })), ...discovered.map((d) => ({ ...d, discovered: true }))].map((d) => {
    const hardware = random.pick(HARDWARE[d.type] ?? []);
    return {
      tenant_id: tenantId,
      name: d.label,
      label: d.label,
      type: d.type,
      status: 'Not yet connected',
      asset_id: null,
      parent_id: null,
      is_parent: d.type === 'ROUTER',
      template_id: null,
      access_token: randomBytes(15).toString('base64url'),
      discovered: d.discovered,
      metadata: JSON.stringify({
        muteDevice: false,
        maintenance: false,
        enableDevice: true,
        vendor: hardware?.vendor ?? 'Generic',
        model: hardware?.model ?? d.type,
        serialNumber: `${(hardware?.vendor ?? 'GEN').slice(0, 3).toUpperCase()}${random.int(100000, 999999)}`,
        ...(d.discovered && customerId ? { customerId } : {}),
      }),
    };
  });
  await db.insertInto('devices').values(rows).execute();
}
