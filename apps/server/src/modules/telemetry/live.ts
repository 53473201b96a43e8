import { type DeviceValuesPayload, EVENT_TYPES, type TelemetryValue } from '@sitewatch/contracts';
import type { EventBus } from '../../platform/events.ts';
import { PUSH_WATCH_EVENT, type PushWatchPayload } from '../../platform/push/hub.ts';
import type { IngestItem } from './ingest.ts';
import type { Reading } from './parse.ts';

/** A device's live values are pushed at most this often (the newest value of each key since the last push). */
export const LIVE_VALUES_MIN_GAP_MS = 500;

interface Pending {
  tenantId: number;
  assetId: number | null;
  values: Map<string, { ts: number; value: TelemetryValue }>;
  timer: NodeJS.Timeout | null;
}

/**
 * Live values over push: after a batch commits, the newest values of the devices some browser watches (announced
 * by the push hub as `push.watch`) go out as `device.values` events, throttled per device: the first at once, then
 * at most one every LIVE_VALUES_MIN_GAP_MS carrying the newest value of each key (so the last value is never held
 * back). Devices nobody watches cost one map lookup per message.
 */
export function createLiveValues(deps: { events: EventBus; minGapMs?: number; now?: () => number }) {
  const gap = deps.minGapMs ?? LIVE_VALUES_MIN_GAP_MS;
  const now = deps.now ?? Date.now;
  /** `tenant:device` → when the watch lapses. */
  const watched = new Map<string, number>();
  const lastSent = new Map<string, number>();
  const pending = new Map<string, Pending>();

  const unsubscribe = deps.events.subscribe((event) => {
    if (event.type !== PUSH_WATCH_EVENT) return;
    const payload = event.payload as PushWatchPayload;
    const until = now() + payload.ttlMs;
    for (const id of payload.deviceIds) watched.set(`${event.tenantId}:${id}`, until);
  });

  const sweep = setInterval(() => {
    const t = now();
    for (const [key, until] of watched) {
      if (until > t) continue;
      watched.delete(key);
      lastSent.delete(key);
    }
  }, 10_000);
  sweep.unref();

  function send(key: string, deviceId: number) {
    const entry = pending.get(key);
    if (!entry) return;
    pending.delete(key);
    if (entry.timer) clearTimeout(entry.timer);
    lastSent.set(key, now());
    const payload: DeviceValuesPayload = {
      deviceId,
      assetId: entry.assetId,
      values: [...entry.values].map(([k, v]) => ({ key: k, ts: v.ts, value: v.value })),
    };
    deps.events.emit({ type: EVENT_TYPES.deviceValues, tenantId: entry.tenantId, payload });
  }

  /** Adds the readings of a watched device to its pending event (`touched` collects the devices queued). */
  function queue(
    tenantId: number,
    deviceId: number,
    assetId: number | null,
    readings: Iterable<Reading>,
    t: number,
    touched: Map<string, number>,
  ) {
    const key = `${tenantId}:${deviceId}`;
    const until = watched.get(key);
    if (until === undefined || until <= t) return;
    let entry = pending.get(key);
    if (!entry) {
      entry = { tenantId, assetId, values: new Map(), timer: null };
      pending.set(key, entry);
    }
    for (const r of readings) {
      const prev = entry.values.get(r.key);
      if (!prev || prev.ts <= r.ts) entry.values.set(r.key, { ts: r.ts, value: r.value });
    }
    touched.set(key, deviceId);
  }

  /** Sends the queued events that are due, and times the others. */
  function sendDue(touched: Map<string, number>, t: number) {
    for (const [key, deviceId] of touched) {
      const entry = pending.get(key) as Pending;
      if (entry.timer) continue;
      const wait = (lastSent.get(key) ?? 0) + gap - t;
      if (wait <= 0) send(key, deviceId);
      else {
        entry.timer = setTimeout(() => send(key, deviceId), wait);
        entry.timer.unref();
      }
    }
  }

  return {
    /** A committed batch: queues the newest values of watched devices and sends those that are due. */
    stored(items: IngestItem[]) {
      if (watched.size === 0) return;
      const t = now();
      const touched = new Map<string, number>();
      for (const { device, kind, readings } of items) {
        if (kind !== 'telemetry') continue;
        queue(device.tenantId, device.id, device.assetId, readings, t, touched);
      }
      sendDue(touched, t);
    },
    /**
     * A committed write of the latest values: sent again to the devices watched now, so that a page that read the
     * latest values before they were written, and began watching after the batch's push, still gets them.
     */
    written(devices: Map<number, { tenantId: number; assetId: number | null; readings: Map<string, Reading> }>) {
      if (watched.size === 0) return;
      const t = now();
      const touched = new Map<string, number>();
      for (const [deviceId, { tenantId, assetId, readings }] of devices) queue(tenantId, deviceId, assetId, readings.values(), t, touched);
      sendDue(touched, t);
    },
    /** Devices watched now (tests). */
    watchedCount: () => watched.size,
    stop() {
      unsubscribe();
      clearInterval(sweep);
      for (const entry of pending.values()) if (entry.timer) clearTimeout(entry.timer);
      pending.clear();
    },
  };
}

export type LiveValues = ReturnType<typeof createLiveValues>;
