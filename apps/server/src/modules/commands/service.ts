import {
  type BulkCommand,
  type BulkCommandList,
  type BulkCommandStatus,
  type BulkTarget,
  COMMAND_LIMITS,
  COMMAND_MESSAGES,
  COMMAND_STATES,
  type CommandList,
  type CommandListQuery,
  type CommandRequestParsed,
  type CommandState,
  type CommandStateCounts,
  type commandListQuerySchema,
  type DeviceCommand,
} from '@sitewatch/contracts';
import type { z } from 'zod';
import { type AuditOrigin, writeActivities, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import type { Clock } from '../../platform/module.ts';
import type { Viewer } from '../sites/scope.ts';
import { DEADLINE_QUEUE } from './dispatcher.ts';
import * as repo from './repository.ts';

type Row = NonNullable<Awaited<ReturnType<typeof repo.commandById>>>;
type BulkRow = NonNullable<Awaited<ReturnType<typeof repo.bulkById>>>;
type CommandOptions = Omit<CommandRequestParsed, 'deviceId'>;

export interface CommandServiceDeps {
  db: Db;
  events: EventBus;
  clock: Clock;
  userNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  /** The names of these sites, by id (a command's device is named with its site). */
  siteNames(tenantId: number, assetIds: number[]): Promise<Map<number, string>>;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const emptyCounts = () => Object.fromEntries(COMMAND_STATES.map((s) => [s, 0])) as CommandStateCounts;
/** A one-way command ends delivered; the other states end every command. */
const isDone = (state: string, oneway: boolean) =>
  state === 'successful' || state === 'timeout' || state === 'failed' || state === 'expired' || (oneway && state === 'delivered');

/** Devices of a bulk stored (and sent) first, on their own; then the rest, this many per transaction. */
const FIRST_CHUNK = 10;
const CHUNK = 50;

/** Wakes the deadline sweep at this time (one job per second of due time, shared by every command due then). */
export async function scheduleDeadline(db: Db, at: Date) {
  const second = Math.ceil(at.getTime() / 1000);
  await enqueueJob(db, { tenantId: null, queue: DEADLINE_QUEUE, runAt: new Date(second * 1000), dedupeKey: `s:${second}`, maxAttempts: 3 });
}

export function createCommandService(deps: CommandServiceDeps) {
  const { db, events, clock } = deps;

  function announce(rows: repo.Changed[]) {
    for (const r of rows) {
      events.emit({
        type: 'command.updated',
        tenantId: r.tenant_id,
        payload: { commandId: r.id, deviceId: r.device_id, assetId: r.asset_id, bulkId: r.bulk_id, state: r.state as CommandState },
      });
    }
  }
  function dispatch(tenantId: number, deviceIds: number[]) {
    for (let i = 0; i < deviceIds.length; i += 500) {
      events.emit({ type: 'rpc.dispatch', tenantId, payload: { deviceIds: deviceIds.slice(i, i + 500) } });
    }
  }

  async function names(tenantId: number, ids: Array<number | null>) {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    return wanted.length ? deps.userNames(tenantId, wanted) : new Map<number, string>();
  }
  const who = (id: number | null, byId: Map<number, string>) => (id === null ? null : { id, name: byId.get(id) ?? '' });

  const sitesOf = (tenantId: number, rows: Array<{ asset_id: number | null }>) =>
    deps.siteNames(tenantId, [...new Set(rows.flatMap((r) => (r.asset_id === null ? [] : [r.asset_id])))]);
  const toCommand = (r: Row, byId: Map<number, string>, sites: Map<number, string>): DeviceCommand => ({
    id: r.id,
    deviceId: r.device_id,
    deviceLabel: r.device_label,
    assetId: r.asset_id,
    siteName: r.asset_id === null ? null : (sites.get(r.asset_id) ?? null),
    bulkId: r.bulk_id,
    method: r.method,
    params: r.params ?? null,
    oneway: r.oneway,
    timeoutMs: r.timeout_ms,
    state: r.state as CommandState,
    response: r.response ?? null,
    error: r.error,
    createdAt: iso(r.created_at) as string,
    expiresAt: iso(r.expires_at) as string,
    sentAt: iso(r.sent_at),
    deliveredAt: iso(r.delivered_at),
    completedAt: iso(r.completed_at),
    createdBy: who(r.created_by, byId),
  });

  function toBulk(b: BulkRow, counts: CommandStateCounts, byId: Map<number, string>): BulkCommand {
    const total = Object.values(counts).reduce((n, c) => n + c, 0);
    const done = counts.successful + counts.timeout + counts.failed + counts.expired + (b.oneway ? counts.delivered : 0);
    return {
      id: b.id,
      method: b.method,
      params: b.params ?? null,
      oneway: b.oneway,
      timeoutMs: b.timeout_ms,
      target: b.target as BulkTarget,
      total,
      counts,
      finished: done === total,
      createdAt: iso(b.created_at) as string,
      expiresAt: iso(b.expires_at) as string,
      createdBy: who(b.created_by, byId),
    };
  }

  /**
   * Stores the commands (queued), records them in each device's activity, and asks for them to be sent. A bulk is
   * stored in chunks, each in its own transaction with its activity entries and sent as soon as it is committed: the
   * first devices get their command while the rest are still being written (a failure part-way leaves the chunks
   * already stored, which the bulk's status shows).
   */
  async function create(
    viewer: Viewer,
    origin: AuditOrigin,
    devices: Array<{ id: number; label: string; asset_id: number | null }>,
    options: CommandOptions,
    bulk: { target: BulkTarget } | null,
  ) {
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + options.expiresInMs);
    let bulkId: number | null = null;
    const all: Row[] = [];
    for (let start = 0; start < devices.length; ) {
      const part = devices.slice(start, start + (start === 0 ? FIRST_CHUNK : CHUNK));
      const first = start === 0;
      start += part.length;
      const stored = await db.transaction().execute(async (trx) => {
        const id =
          bulk && first
            ? await repo.insertBulk(trx, {
                tenantId: viewer.tenantId,
                method: options.method,
                params: options.params,
                oneway: options.oneway,
                timeoutMs: options.timeoutMs,
                target: bulk.target,
                total: devices.length,
                createdBy: viewer.userId,
                createdAt: now,
                expiresAt,
              })
            : bulkId;
        const rows = await repo.insertCommands(
          trx,
          part.map((d) => ({
            tenantId: viewer.tenantId,
            deviceId: d.id,
            deviceLabel: d.label.slice(0, 255),
            assetId: d.asset_id,
            bulkId: id,
            method: options.method,
            params: options.params,
            oneway: options.oneway,
            timeoutMs: options.timeoutMs,
            createdBy: viewer.userId,
            createdAt: now,
            expiresAt,
          })),
        );
        if (first) await scheduleDeadline(trx, expiresAt);
        // every command is in its device's activity, written with it
        if (rows.length === 1) await writeActivity(trx, origin, commandActivity(rows[0] as Row));
        else
          await writeActivities(
            trx,
            origin,
            rows.map((r) => commandActivity(r as Row)),
          );
        return { id, rows: rows as Row[] };
      });
      bulkId = stored.id;
      all.push(...stored.rows);
      announce(stored.rows);
      dispatch(
        viewer.tenantId,
        stored.rows.map((r) => r.device_id),
      );
      // the dispatch of this chunk goes before the next chunk's transaction (PGlite has one session)
      if (start < devices.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { bulkId, rows: all };
  }

  const commandActivity = (row: Row) => ({
    action: 'device.command',
    object: { type: 'device', id: row.device_id },
    after: { commandId: row.id, method: row.method, oneway: row.oneway, bulkId: row.bulk_id },
  });

  async function visibleCommand(viewer: Viewer, id: number) {
    const row = await repo.commandById(db, viewer.tenantId, id);
    if (!row) throw notFound();
    if (!viewer.allSites) {
      const { rows } = await repo.listCommands(db, viewer, { deviceId: row.device_id, page: 1, limit: 1 });
      if (rows.length === 0) throw notFound();
    }
    return row;
  }

  return {
    announce,
    dispatch,

    async send(viewer: Viewer, origin: AuditOrigin, request: CommandRequestParsed): Promise<DeviceCommand> {
      const devices = await repo.targets(db, viewer, { ids: [request.deviceId] }, 1);
      if (devices.length === 0) throw notFound(COMMAND_MESSAGES.deviceUnknown);
      const { rows } = await create(viewer, origin, devices, request, null);
      const row = rows[0] as Row;
      return toCommand(row, await names(viewer.tenantId, [viewer.userId]), await sitesOf(viewer.tenantId, [row]));
    },

    async sendBulk(viewer: Viewer, origin: AuditOrigin, request: CommandOptions & { target: BulkTarget }): Promise<BulkCommandStatus> {
      const t = request.target;
      const filter =
        t.kind === 'site' ? { assetId: t.assetId } : t.kind === 'type' ? { type: t.type, assetId: t.assetId } : { ids: t.deviceIds };
      const devices = await repo.targets(db, viewer, filter, COMMAND_LIMITS.bulkMaxDevices + 1);
      if (t.kind === 'devices' && devices.length !== new Set(t.deviceIds).size) throw notFound(COMMAND_MESSAGES.deviceUnknown);
      if (devices.length === 0) throw badRequest(COMMAND_MESSAGES.noDevices);
      if (devices.length > COMMAND_LIMITS.bulkMaxDevices) throw badRequest(COMMAND_MESSAGES.tooManyDevices);
      const { bulkId } = await create(viewer, origin, devices, request, { target: t });
      return this.bulk(viewer, bulkId as number, { page: 1, limit: 100 });
    },

    async list(viewer: Viewer, query: z.output<typeof commandListQuerySchema>): Promise<CommandList> {
      if (query.deviceId !== undefined) {
        const visible = await repo.targets(db, viewer, { ids: [query.deviceId] }, 1);
        if (visible.length === 0) throw notFound(COMMAND_MESSAGES.deviceUnknown);
      }
      const { rows, total } = await repo.listCommands(db, viewer, query);
      const byId = await names(
        viewer.tenantId,
        rows.map((r) => r.created_by),
      );
      const sites = await sitesOf(viewer.tenantId, rows);
      return { contents: rows.map((r) => toCommand(r as Row, byId, sites)), totalCount: total };
    },

    async one(viewer: Viewer, id: number): Promise<DeviceCommand> {
      const row = await visibleCommand(viewer, id);
      const [byId, history, sites] = await Promise.all([
        names(viewer.tenantId, [row.created_by]),
        repo.historyOf(db, viewer.tenantId, id),
        sitesOf(viewer.tenantId, [row]),
      ]);
      return {
        ...toCommand(row, byId, sites),
        history: history.map((h) => ({ state: h.state as CommandState, transport: h.transport, at: iso(h.at) as string })),
      };
    },

    async bulks(viewer: Viewer, page: number, limit: number): Promise<BulkCommandList> {
      const { rows, total } = await repo.listBulks(db, viewer.tenantId, viewer.allSites ? null : viewer.userId, page, limit);
      const counts = await repo.bulkCounts(
        db,
        viewer,
        rows.map((r) => r.id),
      );
      const byId = await names(
        viewer.tenantId,
        rows.map((r) => r.created_by),
      );
      return { contents: rows.map((b) => toBulk(b, counts.get(b.id) ?? emptyCounts(), byId)), totalCount: total };
    },

    async bulk(
      viewer: Viewer,
      id: number,
      q: { state?: CommandState; search?: string; page: number; limit: number },
    ): Promise<BulkCommandStatus> {
      const b = await repo.bulkById(db, viewer.tenantId, id);
      if (!b || (!viewer.allSites && b.created_by !== viewer.userId)) throw notFound();
      const counts = (await repo.bulkCounts(db, viewer, [id])).get(id) ?? emptyCounts();
      const { rows, total } = await repo.listCommands(db, viewer, {
        bulkId: id,
        state: q.state,
        search: q.search,
        page: q.page,
        limit: q.limit,
      });
      const byId = await names(viewer.tenantId, [b.created_by]);
      const sites = await sitesOf(viewer.tenantId, rows);
      const devices = rows.map((r) => toCommand(r as Row, byId, sites));
      return { ...toBulk(b, counts, byId), devices, devicesCount: total };
    },

    isDone,
  };
}
export type CommandService = ReturnType<typeof createCommandService>;
export type { CommandListQuery };
