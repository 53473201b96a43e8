import { EVENT_TYPES, INGEST_REJECT_REASONS, type IngestRejectReason, type TelemetryValue } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import { createIngestBuffer } from './buffer.ts';
import type { ActivityUpdate, DeviceLink, IngestDevice, StatusChange } from './device-link.ts';
import { parseAttributes, parseTelemetry, type Reading } from './parse.ts';
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
export type BatchListener = (devices: BatchDevice[]) => void | Promise<void>;

export type SubmitResult = { ok: true; stored: Promise<void> } | { ok: false; reason: IngestRejectReason; message: string };

/**
 * The ingest pipeline shared by MQTT and HTTP: token lookup (cached), parsing and refusal (counted), a bounded
 * buffer written in batches — one multi-row INSERT for the history, one upsert for the latest values, one UPDATE
 * for device activity per batch — then device.status events and the alarm engine.
 */
export function createIngest(deps: {
  db: Db;
  events: EventBus;
  link: DeviceLink;
  repo: TelemetryRepository;
  settings: IngestSettings;
  log: FastifyBaseLogger;
}) {
  const { db, events, link, repo, settings, log } = deps;
  const rejected = Object.fromEntries(INGEST_REJECT_REASONS.map((r) => [r, 0])) as Record<IngestRejectReason, number>;
  let accepted = 0;
  let stored = 0;
  const listeners: BatchListener[] = [];
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
  /** State not yet written to the device row, and when its activity was last written. */
  const pendingState = new Map<number, { state: Record<string, unknown>; lastTs: number; writtenAt: number }>();

  /** Latest values waiting for the next coalesced write. */
  let latestPending = new Map<string, LatestRow>();
  let latestWriting: Promise<void> = Promise.resolve();
  async function writeLatest() {
    if (latestPending.size === 0) return;
    const rows = [...latestPending.values()];
    latestPending = new Map();
    try {
      for (let i = 0; i < rows.length; i += 20_000) await repo.upsertLatest(db, 'telemetry_latest', rows.slice(i, i + 20_000));
    } catch (error) {
      log.error({ err: error }, 'latest values write failed; retrying');
      for (const row of rows) {
        const slot = `${row.deviceId}\u0000${row.key}`;
        if (!latestPending.has(slot)) latestPending.set(slot, row);
      }
    }
  }
  const flushLatest = () => {
    latestWriting = latestWriting.then(writeLatest);
    return latestWriting;
  };
  const latestTimer = settings.latestFlushMs > 0 ? setInterval(() => void flushLatest(), settings.latestFlushMs) : null;
  latestTimer?.unref();

  async function sink(items: IngestItem[]) {
    const cols = emptyColumns();
    const latest = new Map<string, LatestRow>();
    const attributes = new Map<string, LatestRow>();
    const batch = new Map<number, BatchDevice>();
    const toOnline = new Map<number, IngestDevice>();
    const now = Date.now();
    for (const { device, kind, readings } of items) {
      if (device.status !== 'Online') toOnline.set(device.id, device);
      let pendingEntry = pendingState.get(device.id);
      if (!pendingEntry) {
        pendingEntry = { state: {}, lastTs: now, writtenAt: 0 };
        pendingState.set(device.id, pendingEntry);
      }
      pendingEntry.lastTs = now;
      let summary = batch.get(device.id);
      if (!summary && kind === 'telemetry') {
        summary = { tenantId: device.tenantId, deviceId: device.id, type: device.type, templateId: device.templateId, values: new Map() };
        batch.set(device.id, summary);
      }
      for (const r of readings) {
        const slot = `${device.id}\u0000${r.key}`;
        if (kind === 'telemetry') {
          pushReading(cols, device.tenantId, device.id, r.key, r.ts, r.value);
          const prev = latest.get(slot);
          if (!prev || prev.ts <= r.ts) {
            latest.set(slot, { tenantId: device.tenantId, deviceId: device.id, key: r.key, ts: r.ts, value: r.value });
            pendingEntry.state[r.key] = r.value;
            summary?.values.set(r.key, { ts: r.ts, value: r.value });
          }
        } else {
          attributes.set(slot, { tenantId: device.tenantId, deviceId: device.id, key: r.key, ts: r.ts, value: r.value });
        }
      }
    }
    const activity: ActivityUpdate[] = [];
    for (const { device } of items) {
      const entry = pendingState.get(device.id);
      if (!entry || entry.writtenAt === now) continue;
      if (toOnline.has(device.id) || now - entry.writtenAt >= ACTIVITY_WRITE_MS) {
        activity.push({ deviceId: device.id, lastTs: entry.lastTs, state: entry.state });
        entry.writtenAt = now;
      }
    }
    let changes: StatusChange[] = [];
    const inline = settings.latestFlushMs === 0;
    try {
      await db.transaction().execute(async (trx) => {
        await repo.insertTelemetry(trx, cols);
        if (inline) await repo.upsertLatest(trx, 'telemetry_latest', [...latest.values()]);
        await repo.upsertLatest(trx, 'device_attributes', [...attributes.values()]);
        changes = await link.recordActivity(trx, activity, [...toOnline.keys()]);
      });
    } catch (error) {
      for (const a of activity) {
        const entry = pendingState.get(a.deviceId);
        if (entry) entry.writtenAt = 0;
      }
      throw error;
    }
    for (const a of activity) {
      const entry = pendingState.get(a.deviceId);
      if (entry && entry.state === a.state) entry.state = {};
    }
    if (!inline) {
      for (const [slot, row] of latest) {
        const prev = latestPending.get(slot);
        if (!prev || prev.ts <= row.ts) latestPending.set(slot, row);
      }
    }
    stored += items.length;
    for (const device of toOnline.values()) device.status = 'Online';
    for (const c of changes) {
      events.emit({
        type: EVENT_TYPES.deviceStatus,
        tenantId: c.tenantId,
        payload: { deviceId: c.id, deviceLabel: c.label, assetId: c.assetId, status: c.status },
      });
    }
    const devices = [...batch.values()];
    // the alarm engine runs after the commit without holding the batch's acks (it orders its own work)
    if (devices.length > 0) {
      for (const listener of listeners) {
        Promise.resolve()
          .then(() => listener(devices))
          .catch((error) => log.error({ err: error }, 'batch listener failed'));
      }
    }
  }

  const shards = Array.from({ length: Math.max(1, settings.flushConcurrency) }, () =>
    createIngestBuffer<IngestItem>({
      capacity: Math.ceil(settings.bufferCapacity / Math.max(1, settings.flushConcurrency)),
      batchSize: settings.batchSize,
      flushIntervalMs: settings.flushIntervalMs,
      sink,
      onError: (error, attempt) => log.error({ err: error, attempt }, 'telemetry flush failed; retrying'),
    }),
  );
  const shardOf = (item: IngestItem) => shards[item.device.id % shards.length] as (typeof shards)[number];
  /** The shards seen as one buffer. */
  const buffer = {
    tryAdd: (item: IngestItem) => shardOf(item).tryAdd(item),
    add: (item: IngestItem) => shardOf(item).add(item),
    get size() {
      return shards.reduce((n, b) => n + b.size, 0);
    },
    get full() {
      return shards.some((b) => b.full);
    },
    stats() {
      const all = shards.map((b) => b.stats());
      return {
        buffered: all.reduce((n, b) => n + b.buffered, 0),
        capacity: all.reduce((n, b) => n + b.capacity, 0),
        flushes: all.reduce((n, b) => n + b.flushes, 0),
        lastFlushMs: all.reduce<number | null>((m, b) => (b.lastFlushMs === null ? m : Math.max(m ?? 0, b.lastFlushMs)), null),
      };
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
    onBatch(listener: BatchListener) {
      listeners.push(listener);
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

    /** Counts a refusal that happened before parsing (unknown token, unknown topic). */
    refuse(reason: IngestRejectReason, message: string) {
      return reject(reason, message);
    },

    /**
     * Parses and buffers one message. `wait` (MQTT) waits for room when the buffer is full; otherwise (HTTP) a full
     * buffer is refused at once as overloaded.
     */
    async submit(device: IngestDevice, kind: 'telemetry' | 'attributes', payload: Buffer | string, wait: boolean): Promise<SubmitResult> {
      const now = Date.now();
      const parsed =
        kind === 'telemetry'
          ? parseTelemetry(payload, now, device.keyTypes, now - settings.retentionDays * 86_400_000)
          : parseAttributes(payload, now);
      if (!parsed.ok) return reject(parsed.reason, parsed.message, device);
      const item: IngestItem = { device, kind, readings: parsed.readings };
      if (wait) {
        // waits for room in the buffer: the caller (MQTT) holds the device's socket meanwhile
        const { stored } = await buffer.add(item);
        accepted++;
        return { ok: true, stored };
      }
      const storedPromise = buffer.tryAdd(item);
      if (!storedPromise) return reject('overloaded', 'ingest buffer full');
      accepted++;
      return { ok: true, stored: storedPromise };
    },

    stats() {
      const b = buffer.stats();
      return {
        accepted,
        stored,
        rejected: { ...rejected },
        buffered: b.buffered,
        capacity: b.capacity,
        flushes: b.flushes,
        lastFlushMs: b.lastFlushMs,
      };
    },

    /** Marks silent devices Offline and tells whoever listens. */
    async sweepOffline(timeoutSeconds: number) {
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
