import { ACCESS_EVENT_KINDS } from '@sitewatch/contracts';
import type { Seeder } from './seeder.ts';
import { deviceOpsInitial, doorCountFor, RTU_INPUTS, RTU_OUTPUTS } from './simulator/device-ops.ts';

const DOOR_NAMES = ['Main entrance', 'Back office', 'Server room', 'Store room', 'Loading bay', 'Staff entrance'];
const INPUT_NAMES = [
  'Mains present',
  'Door contact',
  'Smoke detector',
  'Flood sensor',
  'Genset running',
  'Genset fault',
  'Battery low',
  'Motion',
];
const OUTPUT_NAMES = ['Siren', 'Site lights', 'Genset start', 'AC reset'];
const CREDENTIALS = ['Card 1042', 'Card 1107', 'Card 2210', 'Card 3318', 'PIN 0457', 'Card 4501'];

/** Alarm rules on what the simulated access controllers and routers report. */
const RULES = [
  {
    name: 'Door forced',
    device_type: 'ACCESSCONTROL',
    kind: 'threshold',
    key: 'doorForced',
    operator: '==',
    threshold: 1,
    duration_seconds: 0,
    severity: 'CRITICAL',
    create_ticket: true,
  },
  {
    name: 'Door held open',
    device_type: 'ACCESSCONTROL',
    kind: 'threshold',
    key: 'doorHeldOpen',
    operator: '==',
    threshold: 1,
    duration_seconds: 0,
    severity: 'MINOR',
    create_ticket: false,
  },
  {
    name: 'Router on cellular backup',
    device_type: 'ROUTER',
    kind: 'threshold',
    key: 'wanUp',
    operator: '==',
    threshold: 0,
    duration_seconds: 300,
    severity: 'WARNING',
    create_ticket: false,
  },
] as const;

/**
 * Doors and readers of the access controllers, named inputs and outputs of the ethernet RTUs, a declared host for
 * diagnostics on each of them and on the routers, their first reported state, two days of access events, and the
 * alarm rules on doors and links.
 */
export const deviceOpsSeeder: Seeder = {
  name: 'device-ops',
  async run({ db, tenantId, random }) {
    const devices = await db
      .selectFrom('devices')
      .select(['id', 'type', 'status', 'asset_id', 'metadata', 'state'])
      .where('tenant_id', '=', tenantId)
      .where('type', 'in', ['ACCESSCONTROL', 'ETH', 'ROUTER'])
      .orderBy('id')
      .execute();
    const events: {
      tenant_id: number;
      device_id: number;
      asset_id: number | null;
      door: number;
      kind: string;
      credential: string;
      at: Date;
    }[] = [];
    const now = Date.now();
    for (const d of devices) {
      const metadata: Record<string, string | number | boolean | null> = { ...d.metadata };
      const subnet = `192.168.${(d.asset_id ?? d.id) % 200}`;
      if (d.type === 'ACCESSCONTROL') {
        const doors = doorCountFor(d.id);
        metadata.doorCount = doors;
        for (let n = 1; n <= doors; n++) {
          metadata[`door${n}Name`] = DOOR_NAMES[(d.id + n - 1) % DOOR_NAMES.length] as string;
          metadata[`door${n}Reader`] = `Reader ${n} (${n === 1 ? 'entry' : 'exit'})`;
        }
        metadata.ipAddress ??= `${subnet}.20`;
        if (d.status !== 'Not yet connected')
          for (let i = 0; i < 24; i++) {
            const roll = random.next();
            const kind = roll < 0.75 ? 'granted' : roll < 0.92 ? 'denied' : roll < 0.97 ? 'held_open' : 'forced';
            events.push({
              tenant_id: tenantId,
              device_id: d.id,
              asset_id: d.asset_id,
              door: 1 + Math.floor(random.next() * doors),
              kind: (ACCESS_EVENT_KINDS as readonly string[]).includes(kind) ? kind : 'granted',
              credential: kind === 'granted' || kind === 'denied' ? random.pick(CREDENTIALS) : '',
              at: new Date(now - Math.floor(random.next() * 48 * 3_600_000)),
            });
          }
      } else if (d.type === 'ETH') {
        metadata.inputCount = RTU_INPUTS;
        metadata.outputCount = RTU_OUTPUTS;
        INPUT_NAMES.forEach((name, i) => {
          metadata[`di${i + 1}Name`] = name;
        });
        OUTPUT_NAMES.forEach((name, i) => {
          metadata[`do${i + 1}Name`] = name;
        });
        metadata.ipAddress ??= `${subnet}.30`;
      } else metadata.ipAddress ??= `${subnet}.1`;
      const state = d.status === 'Not yet connected' ? d.state : { ...d.state, ...deviceOpsInitial(d.type, d.id, random.next) };
      await db
        .updateTable('devices')
        .set({ metadata: JSON.stringify(metadata), state: JSON.stringify(state) })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', d.id)
        .execute();
    }
    for (let i = 0; i < events.length; i += 500)
      await db
        .insertInto('access_events')
        .values(events.slice(i, i + 500))
        .execute();
    const existing = new Set(
      (await db.selectFrom('alarm_rules').select('name').where('tenant_id', '=', tenantId).execute()).map((r) => r.name),
    );
    const rules = RULES.filter((r) => !existing.has(r.name));
    if (rules.length)
      await db
        .insertInto('alarm_rules')
        .values(rules.map((r) => ({ ...r, tenant_id: tenantId, template_id: null, enabled: true })))
        .execute();
  },
};
