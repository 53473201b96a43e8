import { createSocket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import type { AlarmSeverity } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import snmp from 'net-snmp';
import type { ExternalAlarms } from '../alarms/index.ts';
import type { DeviceFlags } from '../devices/index.ts';
import type { DestinationTarget, Forwarder } from './forwarder.ts';
import { outgoingOf } from './forwarder.ts';
import type { StatsBook } from './stats.ts';
import { createStormGuard } from './storm.ts';
import { dedupeKeyOf, displayValue, normalise, type RawNotification, rawOf, type Trap } from './trap.ts';

export interface ReceiverSettings {
  port: number;
  host: string;
  communities: string[];
  /** SNMPv3 users the receiver accepts. */
  users: Array<{ name: string; authProtocol: string | null; authKey: string | null; privProtocol: string | null; privKey: string | null }>;
  dedupeMs: number;
  ratePerSource: number;
}

export interface MappingView {
  id: number;
  name: string;
  trapOid: string;
  action: 'raise' | 'clear';
  alarmKey: string;
  instanceOid: string | null;
  severity: AlarmSeverity;
  createTicket: boolean;
  deviceType: string | null;
}

export interface FilterView {
  id: number;
  oidPrefix: string;
  varbindOid: string | null;
  varbindValue: string | null;
  deviceId: number | null;
  assetId: number | null;
  minSeverity: AlarmSeverity | null;
  destinationIds: number[];
}

export interface TenantTrapConfig {
  mappings: Map<string, MappingView[]>;
  filters: FilterView[];
  destinations: Map<number, DestinationTarget>;
}

const RANK: Record<AlarmSeverity, number> = { WARNING: 1, MINOR: 2, MAJOR: 3, CRITICAL: 4 };
const DEVICE_CACHE_MS = 30_000;
const CONFIG_CACHE_MS = 5_000;
const RAISED_MEMORY_MS = 60_000;
const MAX_ALARM_QUEUE = 10_000;

function freeUdpPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createSocket('udp4');
    probe.once('error', reject);
    probe.bind(0, host, () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Whether a filter takes the trap (pure: tested on its own). */
export function filterMatches(
  f: FilterView,
  trap: Trap,
  device: Pick<DeviceFlags, 'id' | 'assetId'>,
  severity: AlarmSeverity | null,
): boolean {
  if (f.oidPrefix !== '' && trap.trapOid !== f.oidPrefix && !trap.trapOid.startsWith(`${f.oidPrefix}.`)) return false;
  if (f.deviceId !== null && f.deviceId !== device.id) return false;
  if (f.assetId !== null && f.assetId !== device.assetId) return false;
  if (f.minSeverity !== null && (severity === null || RANK[severity] < RANK[f.minSeverity])) return false;
  if (f.varbindOid !== null) {
    const wanted = (f.varbindValue ?? '').toLowerCase();
    const oid = f.varbindOid;
    const hit = trap.varbinds.some(
      (vb) => (vb.oid === oid || vb.oid.startsWith(`${oid}.`)) && displayValue(vb).toLowerCase().includes(wanted),
    );
    if (!hit) return false;
  }
  return true;
}

/** The mapping of the trap for the device: one of its type first, else one for every type. */
export function mappingFor(config: TenantTrapConfig, trap: Trap, device: Pick<DeviceFlags, 'type'>): MappingView | null {
  const list = config.mappings.get(trap.trapOid);
  if (!list) return null;
  return list.find((m) => m.deviceType === device.type) ?? list.find((m) => m.deviceType === null) ?? null;
}

export function alarmKeyOf(mapping: MappingView, trap: Trap): { key: string; instance: string | null } {
  let instance: string | null = null;
  if (mapping.instanceOid) {
    const oid = mapping.instanceOid;
    const vb = trap.varbinds.find((v) => v.oid === oid || v.oid.startsWith(`${oid}.`));
    if (vb) instance = displayValue(vb).slice(0, 60);
  }
  return { key: `trap:${mapping.alarmKey}${instance === null ? '' : `:${instance}`}`.slice(0, 200), instance };
}

/**
 * The trap pipeline: receive → find the device (cached by address) → storm control → forward at once (no database
 * on the way) → alarm work queued in order → counters and the unmatched log written in batches by the stats book.
 */
export function createTrapPipeline(deps: {
  settings: ReceiverSettings;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  devicesByAddress(addresses: string[]): Promise<Array<DeviceFlags & { address: string }>>;
  tenantConfig(tenantId: number): Promise<TenantTrapConfig>;
  alarms: ExternalAlarms;
  forwarder: Forwarder;
  stats: StatsBook;
}) {
  const { settings, stats, forwarder, log } = deps;
  const storm = createStormGuard({ dedupeMs: settings.dedupeMs, ratePerSource: settings.ratePerSource });
  const devices = new Map<string, { at: number; list: DeviceFlags[] }>();
  const lookups = new Map<string, Promise<DeviceFlags[]>>();
  const configs = new Map<number, { at: number; config: TenantTrapConfig; refreshing: boolean }>();
  const configLoads = new Map<number, Promise<TenantTrapConfig>>();
  const raised = new Map<string, number>();
  let alarmQueue: Array<() => Promise<void>> = [];
  let alarmRunning: Promise<void> | null = null;
  let receiver: { close(cb?: () => void): void; getAuthorizer(): unknown } | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  let boundPort: number | null = null;

  function devicesOf(address: string): DeviceFlags[] | Promise<DeviceFlags[]> {
    const hit = devices.get(address);
    if (hit && performance.now() - hit.at < DEVICE_CACHE_MS) return hit.list;
    let pending = lookups.get(address);
    if (!pending) {
      pending = deps
        .devicesByAddress([address])
        .then((list) => {
          devices.set(address, { at: performance.now(), list });
          return list as DeviceFlags[];
        })
        .catch((error) => {
          log.error({ err: error }, 'trap source lookup failed');
          return hit?.list ?? [];
        })
        .finally(() => lookups.delete(address));
      lookups.set(address, pending);
    }
    // a stale entry serves while the refresh runs
    return hit ? hit.list : pending;
  }

  function configOf(tenantId: number): TenantTrapConfig | Promise<TenantTrapConfig> {
    const hit = configs.get(tenantId);
    const load = () => {
      let pending = configLoads.get(tenantId);
      if (!pending) {
        pending = deps
          .tenantConfig(tenantId)
          .then((config) => {
            configs.set(tenantId, { at: performance.now(), config, refreshing: false });
            return config;
          })
          .finally(() => configLoads.delete(tenantId));
        configLoads.set(tenantId, pending);
      }
      return pending;
    };
    if (hit) {
      if (performance.now() - hit.at > CONFIG_CACHE_MS && !hit.refreshing) {
        hit.refreshing = true;
        void load().catch((error) => {
          hit.refreshing = false;
          log.error({ err: error }, 'trap configuration could not be loaded');
        });
      }
      return hit.config;
    }
    return load();
  }

  function queueAlarm(work: () => Promise<void>, tenantId: number) {
    if (alarmQueue.length >= MAX_ALARM_QUEUE) {
      stats.count(tenantId, 'rateLimited');
      return;
    }
    alarmQueue.push(work);
    if (!alarmRunning) alarmRunning = drainAlarms();
  }
  async function drainAlarms() {
    while (alarmQueue.length > 0) {
      const batch = alarmQueue;
      alarmQueue = [];
      for (const work of batch) {
        try {
          await work();
        } catch (error) {
          log.error({ err: error }, 'trap alarm could not be applied');
        }
      }
    }
    alarmRunning = null;
  }

  function handleAlarm(config: TenantTrapConfig, trap: Trap, device: DeviceFlags): AlarmSeverity | 'none' {
    const mapping = mappingFor(config, trap, device);
    if (!mapping) return 'none';
    const { key, instance } = alarmKeyOf(mapping, trap);
    const slot = `${device.id}|${key}`;
    const now = performance.now();
    if (mapping.action === 'raise') {
      const last = raised.get(slot);
      if (last !== undefined && now - last < RAISED_MEMORY_MS) return mapping.severity;
      raised.set(slot, now);
      const raw = rawOf(trap);
      const message = `${mapping.name}${instance === null ? '' : ` (${instance})`}: trap ${trap.trapOid} from ${trap.source}`.slice(0, 500);
      queueAlarm(async () => {
        const id = await deps.alarms.raise({
          tenantId: device.tenantId,
          deviceId: device.id,
          key,
          name: mapping.name,
          severity: mapping.severity,
          message,
          createTicket: mapping.createTicket,
          raw,
        });
        if (id !== null) stats.count(device.tenantId, 'alarms');
      }, device.tenantId);
      return mapping.severity;
    }
    raised.delete(slot);
    const raw = rawOf(trap);
    queueAlarm(async () => {
      await deps.alarms.clear({ tenantId: device.tenantId, deviceId: device.id, key, raw });
    }, device.tenantId);
    // a clear goes where the raise it ends went
    return mapping.severity;
  }

  function forward(config: TenantTrapConfig, trap: Trap, device: DeviceFlags, severity: AlarmSeverity | null) {
    if (config.filters.length === 0) return;
    let chosen: Set<number> | null = null;
    for (const f of config.filters) {
      if (!filterMatches(f, trap, device, severity)) continue;
      stats.filterMatched(f.id);
      chosen ??= new Set();
      for (const id of f.destinationIds) chosen.add(id);
    }
    if (!chosen) return;
    const outgoing = outgoingOf(trap);
    for (const id of chosen) {
      const dest = config.destinations.get(id);
      if (dest) forwarder.send(dest, outgoing);
    }
  }

  function process(trap: Trap, list: DeviceFlags[]) {
    const first = list[0];
    const tenantOfCount = first?.tenantId ?? 0;
    const verdict = storm.admit(trap.source, dedupeKeyOf(trap), performance.now());
    if (verdict !== 'ok') {
      stats.count(tenantOfCount, verdict === 'deduped' ? 'deduped' : 'rateLimited');
      return;
    }
    if (!first) {
      stats.count(0, 'received');
      stats.unmatched(null, trap, 'unknown-source', null);
      return;
    }
    // one device per tenant: a shared address is about the same equipment
    const perTenant = new Map<number, DeviceFlags>();
    for (const d of list) if (!perTenant.has(d.tenantId)) perTenant.set(d.tenantId, d);
    for (const device of perTenant.values()) {
      stats.count(device.tenantId, 'received');
      stats.count(device.tenantId, 'matched');
      const config = configOf(device.tenantId);
      if (config instanceof Promise)
        void config.then((c) => apply(c, trap, device)).catch((error) => log.error({ err: error }, 'trap could not be handled'));
      else apply(config, trap, device);
    }
  }

  function apply(config: TenantTrapConfig, trap: Trap, device: DeviceFlags) {
    const severity = handleAlarm(config, trap, device);
    if (severity === 'none') stats.unmatched(device.tenantId, trap, 'no-mapping', device.id);
    forward(config, trap, device, severity === 'none' ? null : severity);
  }

  function resolveDevices(trap: Trap, i: number): void {
    const address = trap.candidates[i];
    if (address === undefined) {
      process(trap, []);
      return;
    }
    const found = devicesOf(address);
    if (found instanceof Promise) {
      void found.then((list) => (list.length > 0 ? process(trap, list) : resolveDevices(trap, i + 1)));
    } else if (found.length > 0) process(trap, found);
    else resolveDevices(trap, i + 1);
  }

  /** Takes one notification as net-snmp hands it over (also used by tests and the benchmark). */
  function accept(notification: RawNotification) {
    let trap: Trap;
    try {
      trap = normalise(notification, performance.now());
    } catch (error) {
      log.warn({ err: error }, 'trap could not be read');
      return;
    }
    resolveDevices(trap, 0);
  }

  return {
    accept,
    /** Binds the UDP port; resolves with the port bound (0 picks a free one). */
    async start(wanted = settings.port): Promise<number> {
      if (receiver) return boundPort as number;
      // net-snmp reads port 0 as "default": a free port is found first
      const port = wanted === 0 ? await freeUdpPort(settings.host) : wanted;
      return new Promise((resolve, reject) => {
        const r = snmp.createReceiver(
          {
            port,
            address: settings.host,
            includeAuthentication: true,
            disableAuthorization: false,
            transport: 'udp4',
          },
          (error: (Error & { rinfo?: { address: string } }) | null, notification: RawNotification | null) => {
            // unknown community or user, bad packet: dropped by net-snmp before it is a trap
            if (error) return;
            if (notification) accept(notification);
          },
        );
        const authorizer = r.getAuthorizer();
        for (const c of settings.communities) authorizer.addCommunity(c);
        for (const u of settings.users) {
          const level = u.privKey
            ? snmp.SecurityLevel.authPriv
            : u.authKey
              ? snmp.SecurityLevel.authNoPriv
              : snmp.SecurityLevel.noAuthNoPriv;
          authorizer.addUser({
            name: u.name,
            level,
            ...(u.authKey
              ? { authProtocol: snmp.AuthProtocols[(u.authProtocol ?? 'sha') as keyof typeof snmp.AuthProtocols], authKey: u.authKey }
              : {}),
            ...(u.privKey
              ? { privProtocol: snmp.PrivProtocols[(u.privProtocol ?? 'aes') as keyof typeof snmp.PrivProtocols], privKey: u.privKey }
              : {}),
          });
        }
        const socket = (r as { listener: { sockets: Record<string, import('node:dgram').Socket> } }).listener.sockets;
        const udp = Object.values(socket)[0];
        if (!udp) {
          reject(new Error('the trap receiver has no socket'));
          return;
        }
        const onError = (error: Error) => reject(error);
        udp.once('error', onError);
        udp.once('listening', () => {
          udp.off('error', onError);
          udp.on('error', (error) => log.error({ err: error }, 'trap receiver socket error'));
          // bursts of traps must not overflow the kernel's default receive buffer
          try {
            udp.setRecvBufferSize(8 * 1024 * 1024);
          } catch {
            // the system's limit stands
          }
          receiver = r;
          boundPort = udp.address().port;
          sweeper = setInterval(() => {
            const now = performance.now();
            storm.sweep(now);
            for (const [slot, at] of raised) if (now - at > RAISED_MEMORY_MS) raised.delete(slot);
          }, 1000);
          sweeper.unref();
          resolve(boundPort);
        });
      });
    },
    get port() {
      return boundPort;
    },
    /** Forget cached configuration (after a change through the API) and device addresses. */
    invalidate(tenantId?: number) {
      if (tenantId === undefined) configs.clear();
      else configs.delete(tenantId);
    },
    invalidateDevices() {
      devices.clear();
    },
    /** Waits for the alarm work queued so far (tests). */
    async settled() {
      while (alarmRunning || lookups.size > 0 || configLoads.size > 0) {
        await Promise.all([alarmRunning, ...lookups.values(), ...configLoads.values()]);
        await new Promise((r) => setImmediate(r));
      }
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      const r = receiver;
      receiver = null;
      boundPort = null;
      if (r) await new Promise<void>((resolve) => r.close(() => resolve()));
      await alarmRunning;
    },
  };
}
export type TrapPipeline = ReturnType<typeof createTrapPipeline>;
