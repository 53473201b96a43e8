import {
  ACCESS_EVENT_KINDS,
  ACCESS_KEYS,
  type AccessEvent,
  type AccessEventKind,
  type AccessEventList,
  accessEventReportSchema,
  DEVICE_OPS_MESSAGES,
  DEVICE_OPS_PERMISSIONS,
  DIAGNOSTIC_LIMITS,
  DIAGNOSTIC_TOOL_LABELS,
  type DiagnosticRun,
  type DiagnosticRunInput,
  type DiagnosticStatus,
  type DiagnosticStreamMessage,
  type DiagnosticTarget,
  type DiagnosticTool,
  type Door,
  type DoorList,
  type IoPoint,
  ROUTER_INTERFACES,
  ROUTER_KEYS,
  type RouterList,
  type RouterView,
  RTU_KEYS,
  type Rtu,
  type RtuList,
  type RtuSite,
} from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, forbidden, HttpError, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { NetworkMatcher, OutboundNetworks } from '../../platform/outbound-networks.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { seesAllSites, type Viewer } from '../sites/scope.ts';
import type { IngestItem } from '../telemetry/ingest.ts';
import { type UserDirectory, usersById } from '../users/directory.ts';
import { checkStreamUrl } from '../video/network.ts';
import { scrubCredentials } from '../video/stream-failure.ts';
import { checkHost, type Networks, ping, rtspProbe, type StreamTarget, snmpGet, tcpProbe } from './probes.ts';
import * as repo from './repository.ts';
import { simulatedProbe } from './simulated.ts';

type Actor = Pick<AuthContext, 'userId' | 'tenantId' | 'roles' | 'permissions'>;

/** What diagnostics ask of the helpdesk: whether the caller sees the ticket, and a comment on it as the caller. */
export interface DiagnosticTickets {
  visible(actor: Actor, id: number): Promise<{ id: number } | null>;
  comment(actor: Actor, id: number, text: string): Promise<void>;
}

export interface DeviceOpsDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'warn'>;
  directory: Pick<SiteDirectory, 'asset' | 'visibleAssetIds'>;
  users: Pick<UserDirectory, 'byIds'>;
  tickets: DiagnosticTickets;
  /** The RTSP URLs of configured cameras, by device id (the video module). */
  streamUrls(tenantId: number, deviceIds: number[]): Promise<Map<number, string>>;
  /** Which addresses a device host may be (the camera URLs' setting). */
  networks: Networks;
  /** The networks each tenant's devices may be dialled in (set by the system administrator). */
  outbound: Pick<OutboundNetworks, 'of'>;
  /** Whether the tenant's devices are on a simulated network (the demo): the simulator answers, nothing is sent. */
  simulated(tenantId: number): Promise<boolean>;
}

type Json = string | number | boolean | null;
const MAX_RUNNING_PER_TENANT = 5;
const KEEP_FINISHED_MS = 60_000;

const bool = (v: Json | undefined): boolean | null =>
  v === undefined || v === null ? null : v === true || v === 1 || v === 'true' || v === '1';
const num = (v: Json | undefined): number | null => {
  if (v === undefined || v === null || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const text = (v: Json | undefined): string | null => (v === undefined || v === null ? null : String(v));
const count = (v: Json | undefined, fallback: number, max: number) => {
  const n = num(v);
  return n === null ? fallback : Math.max(0, Math.min(max, Math.trunc(n)));
};
const viewerOf = (actor: Actor): Viewer => ({ tenantId: actor.tenantId, userId: actor.userId, allSites: seesAllSites(actor.roles) });
/** A run no process follows any more (its process stopped) counts as failed after this long. */
const ABANDONED_MS = 10 * 60_000;
const offsetOf = (q: { page: number; limit: number }) => ({ offset: (q.page - 1) * q.limit, limit: q.limit });

function base(row: repo.OpsDeviceRow) {
  return {
    deviceId: row.id,
    deviceLabel: row.label,
    assetId: row.asset_id,
    siteName: row.site_name,
    status: row.status,
    alarmStatus: row.alarm_status,
    lastActivityAt: row.last_activity_at ? new Date(row.last_activity_at).toISOString() : null,
  };
}

/** The doors an access controller declares (`doorCount`, `door{n}Name`, `door{n}Reader`) with their reported state. */
export function doorsOf(row: repo.OpsDeviceRow): Door[] {
  const n = count(row.metadata.doorCount, 1, 64);
  return Array.from({ length: n }, (_, i) => {
    const door = i + 1;
    return {
      ...base(row),
      door,
      name: text(row.metadata[`door${door}Name`]) ?? `Door ${door}`,
      reader: text(row.metadata[`door${door}Reader`]) ?? `Reader ${door}`,
      open: bool(row.state[ACCESS_KEYS.open(door)]),
      forced: bool(row.state[ACCESS_KEYS.forced(door)]),
      heldOpen: bool(row.state[ACCESS_KEYS.heldOpen(door)]),
    };
  });
}

export function routerOf(row: repo.OpsDeviceRow): RouterView {
  return {
    ...base(row),
    activeInterface: text(row.state[ROUTER_KEYS.activeInterface]),
    interfaces: ROUTER_INTERFACES.map((i) => ({
      name: i.name,
      label: i.label,
      cellular: i.cellular,
      up: bool(row.state[ROUTER_KEYS.up(i.name)]),
      signal: i.cellular ? num(row.state[ROUTER_KEYS.signal(i.name)]) : null,
    })),
    dataUsageMb: num(row.state[ROUTER_KEYS.dataUsageMb]),
    uptimeSeconds: num(row.state[ROUTER_KEYS.uptimeSeconds]),
    wanIp: text(row.state[ROUTER_KEYS.wanIp]),
  };
}

/** An RTU's inputs and outputs (`inputCount`, `outputCount`, `di{n}Name`, `do{n}Name`) with their reported state. */
export function rtuOf(row: repo.OpsDeviceRow): Rtu {
  const points = (kind: 'di' | 'do', total: number, key: (n: number) => string): IoPoint[] =>
    Array.from({ length: total }, (_, i) => ({
      no: i + 1,
      name: text(row.metadata[`${kind}${i + 1}Name`]) ?? `${kind === 'di' ? 'Input' : 'Output'} ${i + 1}`,
      on: bool(row.state[key(i + 1)]),
    }));
  return {
    ...base(row),
    inputs: points('di', count(row.metadata.inputCount, 8, 32), RTU_KEYS.input),
    outputs: points('do', count(row.metadata.outputCount, 4, 32), RTU_KEYS.output),
  };
}

/** The host a device declares for diagnostics (metadata `host`, else `ipAddress`). */
export const hostOf = (row: repo.OpsDeviceRow): string | null => {
  const h = text(row.metadata.host) ?? text(row.metadata.ipAddress);
  return h?.trim() ? h.trim() : null;
};
/** The RTSP URL a device declares: a camera's configured stream, else metadata `rtspUrl`. */
export const streamOf = (row: repo.OpsDeviceRow, cameraUrl: string | undefined): string | null => {
  const url = cameraUrl ?? text(row.metadata.rtspUrl);
  return url?.trim() ? url.trim() : null;
};
const toolsOf = (row: repo.OpsDeviceRow, stream: string | null): DiagnosticTool[] => [
  ...(hostOf(row) ? (['ping', 'tcp', 'snmp'] as const) : []),
  ...(stream ? (['rtsp'] as const) : []),
  'last-contact',
];

const hostRefusal = (reason: 'refused' | 'unresolved' | 'outside') =>
  reason === 'unresolved'
    ? DEVICE_OPS_MESSAGES.hostUnresolved
    : reason === 'outside'
      ? DEVICE_OPS_MESSAGES.hostOutsideNetworks
      : DEVICE_OPS_MESSAGES.hostRefused;

/** Checks a stream URL with the camera URLs' rules: the URL ffprobe opens (pinned) and the address to connect to. */
async function streamTarget(url: string, networks: Networks, tenant: NetworkMatcher): Promise<StreamTarget> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(DEVICE_OPS_MESSAGES.noStream);
  }
  if (parsed.protocol !== 'rtsp:' && parsed.protocol !== 'rtsps:') throw badRequest(DEVICE_OPS_MESSAGES.noStream);
  const [pinned, host] = await Promise.all([checkStreamUrl(url, networks, tenant), checkHost(parsed.hostname, networks, tenant)]);
  if (!host.ok) throw badRequest(hostRefusal(host.reason));
  if (!pinned.ok) throw badRequest(DEVICE_OPS_MESSAGES.hostRefused);
  return { url: pinned.pinned, address: host.address, port: Number(parsed.port) || (parsed.protocol === 'rtsps:' ? 322 : 554) };
}

interface LiveRun {
  tenantId: number;
  lines: string[];
  bytes: number;
  listeners: Set<(m: DiagnosticStreamMessage) => void>;
  status: DiagnosticStatus;
  abort: AbortController;
}

export function createDeviceOpsService(deps: DeviceOpsDeps) {
  const { db } = deps;
  const live = new Map<number, LiveRun>();

  const canView = (actor: Actor) => {
    if (!actor.permissions.has(DEVICE_OPS_PERMISSIONS.view)) throw forbidden();
  };
  const canDiagnose = (actor: Actor) => {
    canView(actor);
    if (!actor.permissions.has(DEVICE_OPS_PERMISSIONS.diagnose)) throw forbidden();
  };

  async function sees(actor: Actor, assetId: number) {
    const visible = await deps.directory.visibleAssetIds(actor.tenantId, actor.userId, actor.roles);
    return visible === 'all' || visible.includes(assetId);
  }

  /* ---------------------------------------------------------------- telemetry → access events */

  /** Indexes the access events controllers report, and announces them (live event lists, the door tiles). */
  async function stored(items: IngestItem[]) {
    const rows: repo.AccessEventInsert[] = [];
    for (const item of items) {
      if (item.kind !== 'telemetry' || item.device.type !== 'ACCESSCONTROL') continue;
      for (const r of item.readings) {
        if (r.key !== ACCESS_KEYS.event || typeof r.value !== 'string') continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(r.value);
        } catch {
          continue;
        }
        const report = accessEventReportSchema.safeParse(parsed);
        if (!report.success) continue;
        rows.push({
          tenant_id: item.device.tenantId,
          device_id: item.device.id,
          asset_id: item.device.assetId,
          door: report.data.door,
          kind: report.data.kind,
          credential: report.data.credential.replace(/\0/g, ''),
          at: new Date(r.ts),
        });
      }
    }
    if (rows.length === 0) return;
    try {
      await repo.insertAccessEvents(db, rows);
    } catch (error) {
      deps.log.warn({ err: (error as Error).message, events: rows.length }, 'access events not indexed');
      return;
    }
    for (const row of rows)
      deps.events.emit({
        type: 'device.access-event',
        tenantId: row.tenant_id,
        payload: { deviceId: row.device_id, assetId: row.asset_id, door: row.door, kind: row.kind as AccessEventKind },
      });
  }

  /* ---------------------------------------------------------------- diagnostics runs */

  function present(row: repo.RunRow & { label: string }, names: Map<number, { firstname: string; lastname: string }>): DiagnosticRun {
    const user = row.started_by === null ? undefined : names.get(row.started_by);
    const running = live.get(row.id);
    const abandoned =
      !running && row.status === 'running' && deps.clock.now().getTime() - new Date(row.started_at).getTime() > ABANDONED_MS;
    return {
      id: row.id,
      deviceId: row.device_id,
      deviceLabel: row.label,
      assetId: row.asset_id,
      tool: row.tool as DiagnosticTool,
      target: row.target,
      status: (abandoned ? 'failed' : (running?.status ?? row.status)) as DiagnosticStatus,
      output: running && row.status === 'running' ? running.lines.join('\n') : row.output,
      startedAt: new Date(row.started_at).toISOString(),
      finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
      startedBy: row.started_by === null ? null : { id: row.started_by, name: user ? `${user.firstname} ${user.lastname}`.trim() : '' },
      ticketId: row.ticket_id,
    };
  }

  async function runRow(actor: Actor, id: number) {
    const { rows } = await repo.runs(db, viewerOf(actor), { id }, { offset: 0, limit: 1 });
    const row = rows[0];
    if (!row) throw notFound(DEVICE_OPS_MESSAGES.runUnknown);
    return row;
  }

  async function execute(
    run: repo.RunRow,
    device: repo.OpsDeviceRow,
    input: DiagnosticRunInput,
    to: { address: string | null; stream: StreamTarget | null; simulated: string | null },
    state: LiveRun,
  ) {
    const { address } = to;
    const emit = (line: string) => {
      // no line may carry a stream URL's credentials, whatever printed it
      const clean = scrubCredentials(line.replace(/\0/g, ''));
      if (state.bytes + clean.length > DIAGNOSTIC_LIMITS.outputBytes) return;
      state.lines.push(clean);
      state.bytes += clean.length + 1;
      for (const l of state.listeners) l({ type: 'line', text: clean });
    };
    let ok = false;
    try {
      const signal = state.abort.signal;
      if (input.tool === 'last-contact') {
        emit(`Device ${device.label} (${device.type})`);
        emit(`Status: ${device.status}`);
        const at = device.last_activity_at ? new Date(device.last_activity_at) : null;
        if (at) {
          const ago = Math.max(0, Math.round((deps.clock.now().getTime() - at.getTime()) / 1000));
          emit(`Last contact over MQTT/HTTP: ${at.toISOString()} (${ago} s ago)`);
          ok = true;
        } else emit('Last contact over MQTT/HTTP: never');
        const keys = Object.keys(device.state);
        emit(keys.length ? `Reported values: ${keys.slice(0, 40).join(', ')}` : 'Reported values: none');
      } else if (to.simulated !== null) {
        ok = await simulatedProbe(device, input, to.simulated, emit, signal);
      } else if (input.tool === 'rtsp') {
        if (to.stream) ok = await rtspProbe(to.stream, emit, signal);
      } else if (address) {
        if (input.tool === 'ping') ok = await ping(address, emit, signal);
        else if (input.tool === 'tcp') ok = await tcpProbe(address, input.port ?? 80, emit, signal);
        else {
          const community = text(device.metadata.snmpCommunity) ?? 'public';
          ok = await snmpGet(address, community, input.oid, emit, signal);
        }
      }
    } catch (error) {
      emit(`probe failed: ${(error as Error).name}`);
    }
    state.status = ok ? 'succeeded' : 'failed';
    try {
      await repo.finishRun(db, run.tenant_id, run.id, {
        status: state.status,
        output: state.lines.join('\n'),
        finished_at: deps.clock.now(),
      });
    } catch (error) {
      deps.log.warn({ err: (error as Error).message, run: run.id }, 'diagnostic run not stored');
    }
    for (const l of state.listeners) l({ type: 'end', status: state.status });
    state.listeners.clear();
    setTimeout(() => live.delete(run.id), KEEP_FINISHED_MS).unref();
  }

  return {
    stored,

    async doors(actor: Actor, q: { assetId?: number; search?: string; page: number; limit: number }): Promise<DoorList> {
      canView(actor);
      // controllers carry a handful of doors each: the doors of the visible controllers are paged here
      const { rows } = await repo.devicePage(db, viewerOf(actor), ['ACCESSCONTROL'], q, { offset: 0, limit: 2000 });
      const all = rows.flatMap(doorsOf);
      const { offset, limit } = offsetOf(q);
      return { contents: all.slice(offset, offset + limit), totalCount: all.length };
    },

    async events(
      actor: Actor,
      q: { assetId?: number; deviceId?: number; kind?: string; page: number; limit: number },
    ): Promise<AccessEventList> {
      canView(actor);
      const { rows, total } = await repo.accessEvents(db, viewerOf(actor), q, offsetOf(q));
      return {
        contents: rows.map(
          (r): AccessEvent => ({
            id: Number(r.id),
            deviceId: r.device_id,
            deviceLabel: r.label,
            assetId: r.asset_id,
            siteName: r.site_name,
            door: r.door,
            doorName: text(r.metadata[`door${r.door}Name`]) ?? `Door ${r.door}`,
            kind: (ACCESS_EVENT_KINDS as readonly string[]).includes(r.kind) ? (r.kind as AccessEventKind) : 'denied',
            credential: r.credential,
            at: new Date(r.at).toISOString(),
          }),
        ),
        totalCount: total,
      };
    },

    async routers(actor: Actor, q: { assetId?: number; search?: string; page: number; limit: number }): Promise<RouterList> {
      canView(actor);
      const { rows, total } = await repo.devicePage(db, viewerOf(actor), ['ROUTER'], q, offsetOf(q));
      return { contents: rows.map(routerOf), totalCount: total };
    },

    async rtus(actor: Actor, q: { assetId?: number; search?: string; page: number; limit: number }): Promise<RtuList> {
      canView(actor);
      const { rows, total } = await repo.devicePage(db, viewerOf(actor), ['ETH'], q, offsetOf(q));
      return { contents: rows.map(rtuOf), totalCount: total };
    },

    async rtuSite(actor: Actor, assetId: number): Promise<RtuSite> {
      canView(actor);
      const site = await deps.directory.asset(actor.tenantId, assetId);
      if (!site || !(await sees(actor, assetId))) throw notFound(DEVICE_OPS_MESSAGES.siteUnknown);
      const { rows } = await repo.devicePage(db, viewerOf(actor), ['ETH'], { assetId }, { offset: 0, limit: 200 });
      return { site: { id: site.id, name: site.name }, rtus: rows.map(rtuOf) };
    },

    async targets(actor: Actor, q: { assetId?: number; search?: string; page: number; limit: number }) {
      canDiagnose(actor);
      const { rows, total } = await repo.devicePage(db, viewerOf(actor), repo.ALL_TYPES, q, offsetOf(q));
      const cameras = await deps.streamUrls(
        actor.tenantId,
        rows.filter((r) => r.type === 'CAMERA').map((r) => r.id),
      );
      const streams = new Map(
        rows.flatMap((r) => {
          const url = streamOf(r, cameras.get(r.id));
          return url ? [[r.id, scrubCredentials(url)] as const] : [];
        }),
      );
      return {
        contents: rows.map(
          (r): DiagnosticTarget => ({
            deviceId: r.id,
            deviceLabel: r.label,
            type: r.type,
            assetId: r.asset_id,
            siteName: r.site_name,
            status: r.status,
            host: hostOf(r),
            stream: streams.get(r.id) ?? null,
            tools: toolsOf(r, streams.get(r.id) ?? null),
          }),
        ),
        totalCount: total,
      };
    },

    async start(actor: Actor & { userId: number }, input: DiagnosticRunInput): Promise<DiagnosticRun> {
      canDiagnose(actor);
      const device = await repo.deviceOf(db, viewerOf(actor), input.deviceId, repo.ALL_TYPES);
      if (!device) throw notFound(DEVICE_OPS_MESSAGES.deviceUnknown);
      let address: string | null = null;
      let stream: StreamTarget | null = null;
      let simulated: string | null = null;
      let target = `${device.label}`;
      if (input.tool !== 'last-contact' && (await deps.simulated(actor.tenantId))) {
        // nothing is resolved or dialled: the simulator answers for the declared host or stream
        const cameraUrl =
          input.tool === 'rtsp' && device.type === 'CAMERA'
            ? (await deps.streamUrls(actor.tenantId, [device.id])).get(device.id)
            : undefined;
        const declared = input.tool === 'rtsp' ? streamOf(device, cameraUrl) : hostOf(device);
        if (!declared) throw badRequest(input.tool === 'rtsp' ? DEVICE_OPS_MESSAGES.noStream : DEVICE_OPS_MESSAGES.noHost);
        simulated = input.tool === 'rtsp' ? scrubCredentials(declared) : declared;
        target = input.tool === 'tcp' ? `${declared}:${input.port ?? 80}` : simulated;
      } else if (input.tool === 'rtsp') {
        const cameraUrl = device.type === 'CAMERA' ? (await deps.streamUrls(actor.tenantId, [device.id])).get(device.id) : undefined;
        const url = streamOf(device, cameraUrl);
        if (!url) throw badRequest(DEVICE_OPS_MESSAGES.noStream);
        stream = await streamTarget(url, deps.networks, await deps.outbound.of(actor.tenantId));
        target = scrubCredentials(url);
      } else if (input.tool !== 'last-contact') {
        const host = hostOf(device);
        if (!host) throw badRequest(DEVICE_OPS_MESSAGES.noHost);
        const checked = await checkHost(host, deps.networks, await deps.outbound.of(actor.tenantId));
        if (!checked.ok) throw badRequest(hostRefusal(checked.reason));
        address = checked.address;
        target = input.tool === 'tcp' ? `${host}:${input.port ?? 80}` : host;
      }
      const running = [...live.values()].filter((r) => r.tenantId === actor.tenantId && r.status === 'running').length;
      if (running >= MAX_RUNNING_PER_TENANT) throw new HttpError(429, DEVICE_OPS_MESSAGES.tooMany);
      const run = await repo.insertRun(db, {
        tenant_id: actor.tenantId,
        device_id: device.id,
        asset_id: device.asset_id,
        tool: input.tool,
        target: target.slice(0, 300),
        started_by: actor.userId,
        started_at: deps.clock.now(),
      });
      const state: LiveRun = {
        tenantId: actor.tenantId,
        lines: [`${DIAGNOSTIC_TOOL_LABELS[input.tool]}: ${target}`],
        bytes: 0,
        listeners: new Set(),
        status: 'running',
        abort: new AbortController(),
      };
      live.set(run.id, state);
      void execute(run, device, input, { address, stream, simulated }, state);
      const names = await usersById(deps.users, actor.tenantId, [actor.userId]);
      return present({ ...run, label: device.label }, names);
    },

    async runs(actor: Actor, q: { deviceId?: number; page: number; limit: number }) {
      canDiagnose(actor);
      const { rows, total } = await repo.runs(db, viewerOf(actor), { deviceId: q.deviceId }, offsetOf(q));
      const names = await usersById(
        deps.users,
        actor.tenantId,
        rows.map((r) => r.started_by),
      );
      return { contents: rows.map((r) => present(r, names)), totalCount: total };
    },

    async run(actor: Actor, id: number): Promise<DiagnosticRun> {
      canDiagnose(actor);
      const row = await runRow(actor, id);
      return present(row, await usersById(deps.users, actor.tenantId, [row.started_by]));
    },

    /** Checks the caller may follow the run (before the socket upgrade). */
    async followable(actor: Actor, id: number) {
      canDiagnose(actor);
      return runRow(actor, id);
    },

    /** Replays the run's output so far and follows it; the returned function stops following. */
    follow(row: repo.RunRow, send: (m: DiagnosticStreamMessage) => void): () => void {
      const state = live.get(row.id);
      if (!state) {
        for (const line of row.output ? row.output.split('\n') : []) send({ type: 'line', text: line });
        send({ type: 'end', status: row.status as DiagnosticStatus });
        return () => {};
      }
      for (const line of state.lines) send({ type: 'line', text: line });
      if (state.status !== 'running') {
        send({ type: 'end', status: state.status });
        return () => {};
      }
      state.listeners.add(send);
      return () => state.listeners.delete(send);
    },

    async attach(actor: Actor, id: number, ticketId: number): Promise<DiagnosticRun> {
      canDiagnose(actor);
      const row = await runRow(actor, id);
      if (row.status === 'running' || live.get(id)?.status === 'running') throw badRequest(DEVICE_OPS_MESSAGES.stillRunning);
      const ticket = await deps.tickets.visible(actor, ticketId);
      if (!ticket) throw notFound(DEVICE_OPS_MESSAGES.ticketUnknown);
      const head = `Diagnostic ${DIAGNOSTIC_TOOL_LABELS[row.tool as DiagnosticTool] ?? row.tool} on ${row.label} (${row.target}), ${row.status}, ${new Date(row.started_at).toISOString()}`;
      const body =
        row.output.length > DIAGNOSTIC_LIMITS.attachNote - head.length - 2
          ? `${row.output.slice(0, DIAGNOSTIC_LIMITS.attachNote - head.length - 6)}\n…`
          : row.output;
      await deps.tickets.comment(actor, ticket.id, `${head}\n${body}`);
      await repo.setRunTicket(db, actor.tenantId, id, ticket.id);
      return present({ ...row, ticket_id: ticket.id }, await usersById(deps.users, actor.tenantId, [row.started_by]));
    },

    stop() {
      for (const state of live.values()) state.abort.abort();
    },
  };
}

export type DeviceOpsService = ReturnType<typeof createDeviceOpsService>;
