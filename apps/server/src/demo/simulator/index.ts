import { DEVICE_TOPICS } from '@sitewatch/contracts';
import { sql } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import type { Db } from '../../platform/db.ts';
import { createRandom } from '../random.ts';
import { answerCommands, keepCommanded } from './commands.ts';
import { type DeviceSim, initialValues, type SiteSim, siteOffline, stepDevice, stepSite } from './physics.ts';

export interface SimulatorOptions {
  db: Db;
  /** The demo tenant whose devices are driven. */
  tenantSlug: string;
  /** The broker the devices connect to (the embedded broker). */
  mqttUrl: string;
  intervalSeconds: number;
  seed: number;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

interface Driven {
  sim: DeviceSim;
  token: string;
  client: MqttClient | null;
  /** Offset in the publish cycle so that devices do not all publish at once. */
  phase: number;
  lastStep: number;
}

const RESCAN_MS = 60_000;
const CONNECTS_PER_TICK = 25;

/**
 * The live demo: every device of the demo tenant connects to the broker with its own token over real MQTT (one
 * connection per device, as in the field) and publishes its physics every interval, spread over the interval.
 * New devices are picked up and rotated tokens reconnect on the next rescan.
 */
export async function startSimulator(options: SimulatorOptions) {
  const random = createRandom(options.seed * 7919).next;
  const sites = new Map<string, SiteSim>();
  const driven = new Map<number, Driven>();
  /** Devices the simulator leaves silent. */
  const dark = new Set<number>();
  const intervalMs = options.intervalSeconds * 1000;
  let stopped = false;
  let scanning = false;

  async function rescan() {
    if (scanning || stopped) return;
    scanning = true;
    try {
      const { rows } = await sql<{
        id: number;
        type: string;
        access_token: string;
        asset_id: number | null;
        longitude: number | null;
        status: string;
      }>`
        select d.id, d.type, d.access_token, d.asset_id, a.longitude, d.status
        from devices d join tenants t on t.id = d.tenant_id left join assets a on a.id = d.asset_id
        where t.slug = ${options.tenantSlug}`.execute(options.db);
      const seen = new Set<number>();
      for (const row of rows) {
        seen.add(row.id);
        // keep the estate's status mix: devices never connected stay so, and some offline ones stay broken
        if (
          !driven.has(row.id) &&
          (dark.has(row.id) || row.status === 'Not yet connected' || (row.status === 'Offline' && random() < 0.3))
        ) {
          dark.add(row.id);
          continue;
        }
        const siteKey = row.asset_id === null ? `device-${row.id}` : `asset-${row.asset_id}`;
        let site = sites.get(siteKey);
        if (!site) {
          site = { key: siteKey, longitude: row.longitude ?? 0, mainsOn: true, outageUntil: 0, nightDrops: random() < 0.15 };
          sites.set(siteKey, site);
        }
        const existing = driven.get(row.id);
        if (existing && existing.token !== row.access_token) {
          existing.client?.end(true);
          existing.client = null;
          existing.token = row.access_token;
        }
        if (!existing) {
          driven.set(row.id, {
            sim: { id: row.id, type: row.type, site, values: initialValues(row.type, row.id, random), weak: random() < 0.1 },
            token: row.access_token,
            client: null,
            phase: Math.floor(random() * intervalMs),
            lastStep: Date.now(),
          });
        }
      }
      for (const [id, d] of driven) {
        if (!seen.has(id)) {
          d.client?.end(true);
          driven.delete(id);
        }
      }
    } catch (error) {
      options.log.warn({ err: (error as Error).message }, 'simulator rescan failed');
    } finally {
      scanning = false;
    }
  }

  function connect(d: Driven) {
    const client = mqtt.connect(options.mqttUrl, {
      username: d.token,
      clientId: `sim-${d.sim.id}`,
      keepalive: 120,
      reconnectPeriod: 30_000,
      connectTimeout: 10_000,
    });
    client.on('error', () => {
      /* a refused token (device rotated or deleted) is picked up by the next rescan */
    });
    answerCommands(client, d.sim);
    d.client = client;
  }

  let cycleStart = Date.now();
  let lastTick = Date.now();
  const timer = setInterval(() => {
    if (stopped) return;
    const now = Date.now();
    const from = lastTick - cycleStart;
    const to = now - cycleStart;
    lastTick = now;
    if (to >= intervalMs) cycleStart = now - (to % intervalMs);
    for (const site of sites.values()) stepSite(site, now, 1, random);
    let connects = 0;
    for (const d of driven.values()) {
      const offline = siteOffline(d.sim.site, now);
      if (!d.client && !offline && connects < CONNECTS_PER_TICK) {
        connect(d);
        connects++;
      }
      const due = to >= intervalMs ? d.phase >= from || d.phase < to % intervalMs : d.phase >= from && d.phase < to;
      if (!due || !d.client?.connected || offline) continue;
      const dt = (now - d.lastStep) / 1000;
      d.lastStep = now;
      const values = keepCommanded(d.sim.values, stepDevice(d.sim, now, dt, random));
      d.client.publish(DEVICE_TOPICS.telemetry, JSON.stringify(values), { qos: 1 });
    }
  }, 1000);
  timer.unref();

  await rescan();
  const rescanTimer = setInterval(() => void rescan(), RESCAN_MS);
  rescanTimer.unref();
  options.log.info({ devices: driven.size, intervalSeconds: options.intervalSeconds }, 'demo device simulator started');

  return {
    get devices() {
      return driven.size;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(rescanTimer);
      await Promise.all(
        [...driven.values()].map((d) => new Promise<void>((resolve) => (d.client ? d.client.end(true, {}, () => resolve()) : resolve()))),
      );
      driven.clear();
    },
  };
}
