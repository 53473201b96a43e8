import { EVENT_TYPES, INGEST_REJECT_REASONS, type IngestRejectReason, type TelemetryValue } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type Db, isDataError } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { ActivityRow, ActivityUpdate, DeviceActivityRepository, IngestDevice } from '../devices/index.ts';
import { createIngestBuffer } from './buffer.ts';
import { parseAttributes, parseTelemetry, type Reading } from './parse.ts';
import type { RateLimiter, RateLimitTransport } from './rate-limit.ts';
import { emptyColumns, type LatestRow, pushReading, type TelemetryRepository } from './repository.ts';

export interface IngestSettings {
  bufferCapacity: number;
  batchSize: number;
  flushIntervalMs: number;
  tokenCacheSeconds: number;
  retentionDays: number;
  /** Batches written at once (devices are split between flushers by id, so batches never touch the same rows). */
  flushConcurrency: number;
  /** Latest values are coalesced and written this often, off the ack path (0: with each batch). */
  latestFlushMs: number;
}

/** A device's last activity and stored state are written at most this often (status changes at once). */
const ACTIVITY_WRITE_MS = 15_000;
/**
 * At start, the latest values of keys written within this time before the newest latest value are caught up with
 * the history (what a crash left unwritten of the coalesced writes: seconds, or more while the database was slow).
 */
const LATEST_CATCH_UP_WINDOW_MS = 3600_000;

/** A device's activity not yet written to its row: newest value per key (with its time) and the last message's time. */
interface PendingState {
  state: Record<string, unknown>;
  stateTs: Record<string, number>;
  lastTs: number;
  writtenAt: number;
  /** A message arrived since the last write. */
  dirty: boolean;
}

export interface IngestItem {
  device: IngestDevice;
  kind: 'telemetry' | 'attributes';
  readings: Reading[];
}

/** What a flush hands to the alarm engine: the newest value of every key per device. */
export interface BatchDevice {
  tenantId: number;
  deviceId: number;
  type: string;
  templateId: number | null;
  values: Map<string, { ts: number; value: TelemetryValue }>;
}
export interface BatchListener {
  onBatch(devices: BatchDevice[]): void | Promise<void>;
  /** Whether the listener cares about this device at all (all devices when absent). */
  wants?(device: IngestDevice): boolean;
}

/** A device's latest values not yet in `telemetry_latest`. */
export interface LatestEntry {
  tenantId: number;
  assetId: number | null;
  readings: Map<string, Reading>;
}

export type SubmitResult = { ok: true; stored: Promise<void> } | { ok: false; reason: IngestRejectReason; message: string };

/**
 * The ingest pipeline shared by MQTT and HTTP: token lookup (cached), parsing and refusal (counted), a bounded
 * buffer written in batches — one statement per batch: the history rows and the activity of the devices that are
 * due — then device.status events and the alarm engine; the latest values are coalesced and written apart.
 */
export function createIngest(deps: {
  db: Db;
  /** Where batches are written: on PostgreSQL a small pool of its own, so that ingest never queues behind HTTP
   * requests for a connection (and they never queue behind it). */
  flushDb?: Db;
  events: EventBus;
  link: DeviceActivityRepository;
  repo: TelemetryRepository;
  settings: IngestSettings;
  log: FastifyBaseLogger;
  limiter: RateLimiter;
}) {
  const { events, link, repo, settings, log, limiter } = deps;
  const db = deps.flushDb ?? deps.db;
  const rejected = Object.fromEntries(INGEST_REJECT_REASONS.map((r) => [r, 0])) as Record<IngestRejectReason, number>;
  let accepted = 0;
  let stored = 0;
  let deadLettered = 0;
  const listeners: BatchListener[] = [];
  /** Told of every committed batch at once (live values): must be cheap and must not throw. */
  const storedListeners: Array<(items: IngestItem[]) => void> = [];
  const tokenCache = new Map<string, { device: IngestDevice | null; expires: number }>();
  let lastRejectLog = 0;

  function reject(reason: IngestRejectReason, message: string, device?: IngestDevice) {
    rejected[reason]++;
    const now = Date.now();
    if (now - lastRejectLog > 5000) {
      lastRejectLog = now;
      log.warn({ reason, deviceId: device?.id, detail: message }, 'device input refused');
    }
    return { ok: false as const, reason, message };
  }

  /** Devices known to this process by id (the token cache's objects), to keep their status current. */
  const known = new Map<number, IngestDevice>();
  /** State not yet written to the device row (newest value per key, with its time), and when activity was last written. */
  const pendingState = new Map<number, PendingState>();
  /** Takes the device's unwritten activity for a write (given back by `restoreActivity` if the write fails). */
  function takeActivity(deviceId: number, entry: PendingState, online: boolean, now: number): ActivityUpdate {
    const update = { deviceId, lastTs: entry.lastTs, state: entry.state, online };
    entry.state = {};
    entry.stateTs = {};
    entry.writtenAt = now;
    entry.dirty = false;
    return update;
  }
  /**
   * Gives back activity whose write failed. After a data error the state values are dropped: one of them may be
   * what the database refused, and the retried halves of the batch put back the values of the rows they write.
   */
  function restoreActivity(updates: ActivityUpdate[], keepState = true) {
    for (const a of updates) {
      const entry = pendingState.get(a.deviceId);
      if (!entry) continue;
      entry.writtenAt = 0;
      entry.dirty = true;
      if (keepState) entry.state = { ...a.state, ...entry.state };
    }
  }

  /** Takes a dead-lettered message's values out of its device's unwritten state, so they never fail a later write. */
  function forgetState(item: IngestItem) {
    const entry = pendingState.get(item.device.id);
    if (!entry) return;
    for (const r of item.readings) {
      if (entry.state[r.key] === r.value && entry.stateTs[r.key] === r.ts) {
        delete entry.state[r.key];
        delete entry.stateTs[r.key];
      }
    }
  }

  /**
   * Latest values waiting for the next coalesced write: device → key → newest reading. They are stored in the
   * history already (the device was answered), so reads of the latest values in this process lay them over the
   * table (`pendingLatest`).
   */
  let latestPending = new Map<number, LatestEntry>();
  /** The coalesced write under way: still read by `pendingLatest` until it commits. */
  let latestInWrite = new Map<number, LatestEntry>();
  type LatestByDevice = typeof latestPending;
  function mergeReading(target: LatestByDevice, device: Pick<IngestDevice, 'tenantId' | 'assetId'>, deviceId: number, r: Reading) {
    let entry = target.get(deviceId);
    if (!entry) {
      entry = { tenantId: device.tenantId, assetId: device.assetId, readings: new Map() };
      target.set(deviceId, entry);
    }
    const prev = entry.readings.get(r.key);
    if (!prev || prev.ts <= r.ts) entry.readings.set(r.key, r);
  }
  const mergeLatest = (device: Pick<IngestDevice, 'tenantId' | 'assetId'>, deviceId: number, r: Reading) =>
    mergeReading(latestPending, device, deviceId, r);
  const latestRows = (pending: typeof latestPending) => {
    const rows: LatestRow[] = [];
    for (const [deviceId, { tenantId, readings }] of pending)
      for (const r of readings.values()) rows.push({ tenantId, deviceId, key: r.key, ts: r.ts, value: r.value });
    return rows;
  };
  /** Told of every coalesced write of the latest values once it committed (live values: the flush is followed by a push). */
  const latestListeners: Array<(written: LatestByDevice) => void> = [];
  let latestWriting: Promise<void> = Promise.resolve();
  async function writeLatest() {
    if (latestPending.size === 0) return;
    const pending = latestPending;
    latestPending = new Map();
    latestInWrite = pending;
    const rows = latestRows(pending);
    try {
      for (let i = 0; i < rows.length; i += 20_000) await repo.upsertLatest(db, 'telemetry_latest', rows.slice(i, i + 20_000));
    } catch (error) {
      log.error({ err: error }, 'latest values write failed; retrying');
      for (const [deviceId, entry] of pending) for (const r of entry.readings.values()) mergeLatest(entry, deviceId, r);
      return;
    } finally {
      latestInWrite = new Map();
    }
    for (const listener of latestListeners) {
      try {
        listener(pending);
      } catch (error) {
        log.error({ err: error }, 'latest-values listener failed');
      }
    }
  }
  const flushLatest = () => {
    latestWriting = latestWriting.then(writeLatest);
    return latestWriting;
  };
  const latestTimer = settings.latestFlushMs > 0 ? setInterval(() => void flushLatest(), settings.latestFlushMs) : null;
  latestTimer?.unref();

  /**
   * Activity of devices that went quiet before their next write fell due (a batch writes a device's activity only
   * when it sends again): written by the status sweep, so that last activity and state never stay behind.
   */
  async function writeQuietActivity() {
    const now = Date.now();
    const updates: ActivityUpdate[] = [];
    for (const [deviceId, entry] of pendingState) {
      if (entry.dirty && now - entry.writtenAt >= ACTIVITY_WRITE_MS) updates.push(takeActivity(deviceId, entry, false, now));
    }
    for (let i = 0; i < updates.length; i += 5000) {
      const part = updates.slice(i, i + 5000);
      try {
        await link.activityStatement(part).execute(db);
      } catch (error) {
        restoreActivity(updates.slice(i), !isDataError(error));
        throw error;
      }
    }
  }

  /** What the listeners are told of a committed batch: the newest value per key of each device they watch. */
  function batchDevices(items: IngestItem[]): BatchDevice[] {
    const watched = listeners.filter((l) => l.wants);
    const everything = watched.length < listeners.length;
    const batch = new Map<number, BatchDevice>();
    for (const { device, kind, readings } of items) {
      if (kind !== 'telemetry') continue;
      let summary = batch.get(device.id);
      if (!summary) {
        if (!everything && !watched.some((l) => l.wants?.(device))) continue;
        summary = { tenantId: device.tenantId, deviceId: device.id, type: device.type, templateId: device.templateId, values: new Map() };
        batch.set(device.id, summary);
      }
      for (const r of readings) {
        const prev = summary.values.get(r.key);
        if (!prev || prev.ts <= r.ts) summary.values.set(r.key, r);
      }
    }
    return [...batch.values()];
  }

  async function sink(items: IngestItem[]) {
    const cols = emptyColumns();
    const attributes = new Map<string, LatestRow>();
    const toOnline = new Map<number, IngestDevice>();
    const activity: ActivityUpdate[] = [];
    const now = Date.now();
    for (const { device, kind, readings } of items) {
      if (device.status !== 'Online') toOnline.set(device.id, device);
      let entry = pendingState.get(device.id);
      if (!entry) {
        // a device's first write comes at a random point of the interval (at once if it turns Online), so that
        // devices seen together (all of them, after a restart) are not written together every interval after
        entry = { state: {}, stateTs: {}, lastTs: now, writtenAt: now - Math.random() * ACTIVITY_WRITE_MS, dirty: true };
        pendingState.set(device.id, entry);
      }
      entry.lastTs = now;
      entry.dirty = true;
      if (kind === 'telemetry') {
        for (const r of readings) {
          pushReading(cols, device.tenantId, device.id, r.key, r.ts, r.value);
          const prevTs = entry.stateTs[r.key];
          if (prevTs === undefined || prevTs <= r.ts) {
            entry.state[r.key] = r.value;
            entry.stateTs[r.key] = r.ts;
          }
        }
      } else {
        for (const r of readings) {
          attributes.set(`${device.id}\u0000${r.key}`, {
            tenantId: device.tenantId,
            deviceId: device.id,
            key: r.key,
            ts: r.ts,
            value: r.value,
          });
        }
      }
    }
    for (const { device } of items) {
      const entry = pendingState.get(device.id);
      if (!entry || entry.writtenAt === now) continue;
      const online = toOnline.has(device.id);
      if (online || now - entry.writtenAt >= ACTIVITY_WRITE_MS) activity.push(takeActivity(device.id, entry, online, now));
    }
    let latest: LatestRow[] = [];
    if (settings.latestFlushMs === 0) {
      const batchLatest: LatestByDevice = new Map();
      for (const { device, kind, readings } of items) {
        if (kind === 'telemetry') for (const r of readings) mergeReading(batchLatest, device, device.id, r);
      }
      latest = latestRows(batchLatest);
    }
    let changes: ActivityRow[];
    try {
      // one statement: one round trip per batch, atomic
      changes = await repo.writeBatch(db, {
        cols,
        latest,
        attributes: [...attributes.values()],
        activity: activity.length > 0 ? link.activityStatement(activity) : null,
      });
    } catch (error) {
      restoreActivity(activity, !isDataError(error));
      throw error;
    }
    if (settings.latestFlushMs > 0) {
      for (const { device, kind, readings } of items) {
        if (kind === 'telemetry') for (const r of readings) mergeLatest(device, device.id, r);
      }
    }
    stored += items.length;
    for (const listener of storedListeners) {
      try {
        listener(items);
      } catch (error) {
        log.error({ err: error }, 'stored-batch listener failed');
      }
    }
    for (const device of toOnline.values()) device.status = 'Online';
    for (const c of changes) {
      if (!c.turned_online) continue;
      events.emit({
        type: EVENT_TYPES.deviceStatus,
        tenantId: c.tenant_id,
        payload: { deviceId: c.id, deviceLabel: c.label, assetId: c.asset_id, status: 'Online' },
      });
    }
    if (listeners.length === 0) return;
    const devices = batchDevices(items);
    // the alarm engine runs after the commit without holding the batch's acks (it orders its own work)
    if (devices.length > 0) {
      for (const listener of listeners) {
        Promise.resolve()
          .then(() => listener.onBatch(devices))
          .catch((error) => log.error({ err: error }, 'batch listener failed'));
      }
    }
  }

  let flushObserver: ((seconds: number) => void) | null = null;
  const shards = Array.from({ length: Math.max(1, settings.flushConcurrency) }, () =>
    createIngestBuffer<IngestItem>({
      capacity: Math.ceil(settings.bufferCapacity / Math.max(1, settings.flushConcurrency)),
      batchSize: settings.batchSize,
      flushIntervalMs: settings.flushIntervalMs,
      sink,
      onError: (error, attempt) => log.error({ err: error, attempt }, 'telemetry flush failed; retrying'),
      isPoison: isDataError,
      onFlushed: (ms) => flushObserver?.(ms / 1000),
      onPoison: (item, error) => {
        deadLettered++;
        forgetState(item);
        const code = (error as { code?: string }).code;
        // the payload itself is not logged: it is device input of any size
        log.error(
          {
            deviceId: item.device.id,
            tenantId: item.device.tenantId,
            kind: item.kind,
            keys: item.readings.map((r) => r.key).slice(0, 20),
            code,
          },
          'telemetry message refused by the database; dead-lettered',
        );
      },
    }),
  );
  const shardOf = (item: IngestItem) => shards[item.device.id % shards.length] as (typeof shards)[number];
  /** The shards seen as one buffer. */
  const buffer = {
    add: (item: IngestItem) => shardOf(item).add(item),
    addNow: (item: IngestItem) => shardOf(item).addNow(item),
    get size() {
      return shards.reduce((n, b) => n + b.size, 0);
    },
    /** Asked for every MQTT publish and read (the broker holds reads while it is true): a plain loop, no closure. */
    get full() {
      for (const shard of shards) if (shard.full) return true;
      return false;
    },
    stats() {
      const all = shards.map((b) => b.stats());
      const sum = (pick: (b: (typeof all)[number]) => number) => all.reduce((n, b) => n + pick(b), 0);
      return {
        buffered: sum((b) => b.buffered),
        capacity: sum((b) => b.capacity),
        flushes: sum((b) => b.flushes),
        flushedMessages: sum((b) => b.flushedItems),
        flushMsTotal: sum((b) => b.flushMsTotal),
        lastFlushMs: all.reduce<number | null>((m, b) => (b.lastFlushMs === null ? m : Math.max(m ?? 0, b.lastFlushMs)), null),
      };
    },
    /** One listener told the write time of every committed batch (the metrics histogram). */
    observeFlush(fn: (seconds: number) => void) {
      flushObserver = fn;
    },
    drain: async () => {
      await Promise.all(shards.map((b) => b.drain()));
      await flushLatest();
    },
    close: async () => {
      await Promise.all(shards.map((b) => b.close()));
      if (latestTimer) clearInterval(latestTimer);
      await flushLatest();
    },
  };

  return {
    buffer,
    onBatch(onBatch: BatchListener['onBatch'], wants?: BatchListener['wants']) {
      listeners.push({ onBatch, wants });
    },
    /** Calls the function with the values of every committed coalesced write of the latest values. */
    onLatestWritten(listener: (written: Map<number, LatestEntry>) => void) {
      latestListeners.push(listener);
    },
    /**
     * The device's latest values stored (and acknowledged) but not yet written to `telemetry_latest` by this process:
     * reads lay them over the table, so that a value a device was answered for is shown at once.
     */
    pendingLatest(tenantId: number, deviceId: number): Reading[] {
      const out = new Map<string, Reading>();
      for (const source of [latestInWrite, latestPending]) {
        const entry = source.get(deviceId);
        if (!entry || entry.tenantId !== tenantId) continue;
        for (const r of entry.readings.values()) {
          const prev = out.get(r.key);
          if (!prev || prev.ts <= r.ts) out.set(r.key, r);
        }
      }
      return [...out.values()];
    },
    /** Calls the function with every committed batch, in the flush (after the commit, before the acks). */
    onStored(listener: (items: IngestItem[]) => void) {
      storedListeners.push(listener);
    },

    /** The device a token belongs to (null: unknown or revoked), cached for a few seconds. */
    async deviceForToken(token: string): Promise<IngestDevice | null> {
      if (!token || token.length > 128) return null;
      const now = Date.now();
      const hit = tokenCache.get(token);
      if (hit && hit.expires > now) return hit.device;
      const fetched = await link.byToken(token);
      // one object per device, so that status flips reach every holder (connected MQTT clients included)
      const held = fetched ? known.get(fetched.id) : undefined;
      const device = held && fetched && held.token === fetched.token ? Object.assign(held, fetched) : fetched;
      if (device) {
        if (known.size > 200_000) known.clear();
        known.set(device.id, device);
      }
      if (settings.tokenCacheSeconds > 0) {
        if (tokenCache.size > 100_000) tokenCache.clear();
        tokenCache.set(token, { device, expires: now + settings.tokenCacheSeconds * 1000 });
      }
      return device;
    },
    forgetToken(token: string) {
      tokenCache.delete(token);
    },

    limiter,
    /**
     * Counts a device message against its device's and tenant's rate limits, before anything else is done with it:
     * false when it is over them (it is to be dropped, and is counted as refused).
     */
    admit(device: IngestDevice, bytes: number, transport: RateLimitTransport): boolean {
      if (limiter.admit(device, bytes, transport) === 'ok') return true;
      rejected.rate_limited++;
      return false;
    },

    /** Counts a refusal that happened before parsing (unknown token, unknown topic). */
    refuse(reason: IngestRejectReason, message: string) {
      return reject(reason, message);
    },

    /**
     * Parses and buffers one message. `wait` (MQTT) waits for room when the buffer is full; otherwise (HTTP) a full
     * buffer is refused at once as overloaded.
     */
    submit(
      device: IngestDevice,
      kind: 'telemetry' | 'attributes',
      payload: Buffer | string,
      wait: boolean,
    ): SubmitResult | Promise<SubmitResult> {
      const now = Date.now();
      const parsed =
        kind === 'telemetry'
          ? parseTelemetry(payload, now, device.keyTypes, now - settings.retentionDays * 86_400_000)
          : parseAttributes(payload, now);
      if (!parsed.ok) return reject(parsed.reason, parsed.message, device);
      const item: IngestItem = { device, kind, readings: parsed.readings };
      const storedNow = buffer.addNow(item);
      if (storedNow) {
        accepted++;
        return { ok: true, stored: storedNow };
      }
      if (!wait) return reject('overloaded', 'ingest buffer full');
      // waits for room in the buffer: the caller (MQTT) holds the device's socket meanwhile
      return buffer.add(item).then(({ stored }): SubmitResult => {
        accepted++;
        return { ok: true, stored };
      });
    },

    stats() {
      const b = buffer.stats();
      return {
        accepted,
        stored,
        rejected: { ...rejected },
        deadLettered,
        buffered: b.buffered,
        capacity: b.capacity,
        flushes: b.flushes,
        /** Messages per batch written, on average. */
        averageBatch: b.flushes ? Math.round(b.flushedMessages / b.flushes) : null,
        averageFlushMs: b.flushes ? Math.round(b.flushMsTotal / b.flushes) : null,
        lastFlushMs: b.lastFlushMs,
      };
    },

    /** Marks silent devices Offline and tells whoever listens. */
    /**
     * Brings the latest values and the devices' stored state up to the stored history (run at start: a crash loses
     * the coalesced writes not yet made, never the history). Returns how many values moved on.
     */
    async catchUpLatest() {
      const moved = await repo.rebuildLatest(db, LATEST_CATCH_UP_WINDOW_MS);
      const byDevice = new Map<number, ActivityUpdate>();
      for (const row of moved) {
        let update = byDevice.get(row.device_id);
        if (!update) {
          update = { deviceId: row.device_id, lastTs: row.ms, state: {}, online: false };
          byDevice.set(row.device_id, update);
        }
        update.state[row.key] = row.value;
        update.lastTs = Math.max(update.lastTs, row.ms);
      }
      const updates = [...byDevice.values()];
      for (let i = 0; i < updates.length; i += 5000) await link.activityStatement(updates.slice(i, i + 5000)).execute(db);
      return moved.length;
    },
    async sweepOffline(timeoutSeconds: number) {
      await writeQuietActivity();
      const changes = await link.markInactiveOffline(timeoutSeconds);
      for (const c of changes) {
        const device = known.get(c.id);
        if (device) device.status = c.status;
        events.emit({
          type: EVENT_TYPES.deviceStatus,
          tenantId: c.tenantId,
          payload: { deviceId: c.id, deviceLabel: c.label, assetId: c.assetId, status: c.status },
        });
      }
      return changes;
    },

    close: () => buffer.close(),
  };
}
export type Ingest = ReturnType<typeof createIngest>;
