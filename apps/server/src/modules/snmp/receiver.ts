import { createSocket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import type { AlarmSeverity } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import snmp from 'net-snmp';
import { cidrList } from '../../platform/cidr.ts';
import { isLoopbackHost } from '../../platform/simulated-network.ts';
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
  /** The tenant's devices are on a simulated network (the demo): traps are forwarded to loopback destinations only. */
  simulated: boolean;
}

/** What attributes a trap to a tenant: its community, its v3 users (keys opened), the relays it trusts. */
export interface ReceiverCredentials {
  tenants: Array<{ tenantId: number; community: string; relays: string[] }>;
  users: Array<{
    tenantId: number;
    name: string;
    level: 'noAuthNoPriv' | 'authNoPriv' | 'authPriv';
    authProtocol: string;
    authKey: string | null;
    privProtocol: string;
    privKey: string | null;
  }>;
}

const RANK: Record<AlarmSeverity, number> = { WARNING: 1, MINOR: 2, MAJOR: 3, CRITICAL: 4 };
const DEVICE_CACHE_MS = 30_000;
const CONFIG_CACHE_MS = 5_000;
/** Credentials changed in another process reach the receiver within this. */
const CREDENTIALS_REFRESH_MS = 10_000;
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
  /** The tenant's devices declaring this address (never another tenant's). */
  devicesByAddress(tenantId: number, address: string): Promise<DeviceFlags[]>;
  credentials(): Promise<ReceiverCredentials>;
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
  let communities = new Map<string, number>();
  let users = new Map<string, number>();
  let relays = new Map<number, ReturnType<typeof cidrList>>();
  let credentialsTimer: NodeJS.Timeout | null = null;
  let credentialsLoad: Promise<void> | null = null;

  type Authorizer = {
    getCommunities(): string[];
    addCommunity(c: string): void;
    deleteCommunity(c: string): void;
    addUser(u: object): void;
    deleteUser(name: string): void;
    getUsers(): Array<{ name: string }>;
  };
  /** The receiver's authorizer is kept equal to the credentials: net-snmp drops anything else before it is a trap. */
  function syncAuthorizer(authorizer: Authorizer, creds: ReceiverCredentials) {
    const wanted = new Set(creds.tenants.map((t) => t.community));
    const present = new Set(authorizer.getCommunities());
    for (const c of present) if (!wanted.has(c)) authorizer.deleteCommunity(c);
    for (const c of wanted) if (!present.has(c)) authorizer.addCommunity(c);
    for (const u of authorizer.getUsers().map((x) => x.name)) if (!creds.users.some((x) => x.name === u)) authorizer.deleteUser(u);
    for (const u of creds.users) {
      authorizer.addUser({
        name: u.name,
        level: snmp.SecurityLevel[u.level],
        ...(u.level !== 'noAuthNoPriv' && u.authKey
          ? { authProtocol: snmp.AuthProtocols[u.authProtocol as keyof typeof snmp.AuthProtocols], authKey: u.authKey }
          : {}),
        ...(u.level === 'authPriv' && u.privKey
          ? { privProtocol: snmp.PrivProtocols[u.privProtocol as keyof typeof snmp.PrivProtocols], privKey: u.privKey }
          : {}),
      });
    }
  }

  function loadCredentials(): Promise<void> {
    credentialsLoad ??= deps
      .credentials()
      .then((creds) => {
        if (receiver) syncAuthorizer(receiver.getAuthorizer() as Authorizer, creds);
        communities = new Map(creds.tenants.map((t) => [t.community, t.tenantId]));
        users = new Map(creds.users.map((u) => [u.name, u.tenantId]));
        relays = new Map(creds.tenants.filter((t) => t.relays.length > 0).map((t) => [t.tenantId, cidrList(t.relays)]));
      })
      .catch((error) => log.error({ err: error }, 'trap credentials could not be loaded'))
      .finally(() => {
        credentialsLoad = null;
      });
    return credentialsLoad;
  }

  /** The tenant whose community or v3 user the notification carries. */
  function tenantOf(notification: RawNotification): number | null {
    const { community, user } = notification.pdu;
    if (user !== undefined) return users.get(user) ?? null;
    return community === undefined ? null : (communities.get(community) ?? null);
  }

  /** snmpTrapAddress.0 and the v1 agent-addr are believed only from a relay the tenant lists; else the sender is the source. */
  function trusted(trap: Trap, tenantId: number): Trap {
    if (trap.candidates.length === 1 && trap.candidates[0] === trap.sender) return trap;
    if (relays.get(tenantId)?.has(trap.sender)) return trap;
    return { ...trap, source: trap.sender, candidates: [trap.sender] };
  }

  function devicesOf(tenantId: number, address: string): DeviceFlags[] | Promise<DeviceFlags[]> {
    const slot = `${tenantId}|${address}`;
    const hit = devices.get(slot);
    if (hit && performance.now() - hit.at < DEVICE_CACHE_MS) return hit.list;
    let pending = lookups.get(slot);
    if (!pending) {
      pending = deps
        .devicesByAddress(tenantId, address)
        .then((list) => {
          devices.set(slot, { at: performance.now(), list });
          return list;
        })
        .catch((error) => {
          log.error({ err: error }, 'trap source lookup failed');
          return hit?.list ?? [];
        })
        .finally(() => lookups.delete(slot));
      lookups.set(slot, pending);
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
      if (!dest) continue;
      if (config.simulated && !isLoopbackHost(dest.host)) {
        stats.destination(dest, 'dropped');
        stats.failure(dest, trap.trapOid, 'not sent: the demo sends nothing off this machine (loopback destinations only)');
      } else forwarder.send(dest, outgoing);
    }
  }

  function process(trap: Trap, device: DeviceFlags | undefined) {
    if (!device) {
      // the tenant's community, but no device of the tenant has this address: the install's log, no tenant's
      stats.count(0, 'received');
      stats.unmatched(null, trap, 'unknown-source', null);
      return;
    }
    stats.count(device.tenantId, 'received');
    stats.count(device.tenantId, 'matched');
    const config = configOf(device.tenantId);
    if (config instanceof Promise)
      void config.then((c) => apply(c, trap, device)).catch((error) => log.error({ err: error }, 'trap could not be handled'));
    else apply(config, trap, device);
  }

  function apply(config: TenantTrapConfig, trap: Trap, device: DeviceFlags) {
    const severity = handleAlarm(config, trap, device);
    if (severity === 'none') stats.unmatched(device.tenantId, trap, 'no-mapping', device.id);
    forward(config, trap, device, severity === 'none' ? null : severity);
  }

  function resolveDevice(trap: Trap, tenantId: number, i: number): void {
    const address = trap.candidates[i];
    if (address === undefined) {
      process(trap, undefined);
      return;
    }
    const found = devicesOf(tenantId, address);
    if (found instanceof Promise) {
      void found.then((list) => (list.length > 0 ? process(trap, list[0]) : resolveDevice(trap, tenantId, i + 1)));
    } else if (found.length > 0) process(trap, found[0]);
    else resolveDevice(trap, tenantId, i + 1);
  }

  /**
   * Takes one notification as net-snmp hands it over: the tenant is the one whose community or v3 user it carries
   * (nothing else), storm control counts per UDP sender, and the device is looked for among that tenant's only.
   */
  function accept(notification: RawNotification) {
    const tenantId = tenantOf(notification);
    if (tenantId === null) {
      stats.count(0, 'refused');
      return;
    }
    let trap: Trap;
    try {
      trap = trusted(normalise(notification, performance.now()), tenantId);
    } catch (error) {
      log.warn({ err: error }, 'trap could not be read');
      return;
    }
    const verdict = storm.admit(trap.sender, `${tenantId}|${dedupeKeyOf(trap)}`, performance.now());
    if (verdict !== 'ok') {
      stats.count(tenantId, verdict === 'deduped' ? 'deduped' : 'rateLimited');
      return;
    }
    resolveDevice(trap, tenantId, 0);
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
            // unknown community or user, bad packet: dropped by net-snmp before it is a trap, counted for the install
            if (error) {
              stats.count(0, 'refused');
              return;
            }
            if (notification) accept(notification);
          },
        );
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
          credentialsTimer = setInterval(() => void loadCredentials(), CREDENTIALS_REFRESH_MS);
          credentialsTimer.unref();
          sweeper = setInterval(() => {
            const now = performance.now();
            storm.sweep(now);
            for (const [slot, at] of raised) if (now - at > RAISED_MEMORY_MS) raised.delete(slot);
          }, 1000);
          sweeper.unref();
          void loadCredentials().then(() => resolve(boundPort as number));
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
    /** Reloads communities, v3 users and relays now (after a change through the API). */
    reloadCredentials: () => loadCredentials(),
    /** Waits for the alarm work queued so far (tests). */
    async settled() {
      while (alarmRunning || lookups.size > 0 || configLoads.size > 0) {
        await Promise.all([alarmRunning, ...lookups.values(), ...configLoads.values()]);
        await new Promise((r) => setImmediate(r));
      }
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      if (credentialsTimer) clearInterval(credentialsTimer);
      sweeper = null;
      credentialsTimer = null;
      const r = receiver;
      receiver = null;
      boundPort = null;
      if (r) await new Promise<void>((resolve) => r.close(() => resolve()));
      await alarmRunning;
    },
  };
}
export type TrapPipeline = ReturnType<typeof createTrapPipeline>;
