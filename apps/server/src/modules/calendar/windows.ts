import type { FastifyBaseLogger } from 'fastify';
import { type AuditOrigin, writeActivity } from '../../platform/audit.ts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import type { Clock } from '../../platform/module.ts';
import type { DeviceMaintenance } from '../devices/index.ts';
import type { HelpdeskSchedule } from '../helpdesk/index.ts';
import type { VideoMarkers } from '../video/index.ts';
import { currentOrNext, type Occurrence } from './recurrence.ts';
import * as repo from './repository.ts';
import { scheduleOf } from './service.ts';

export const WINDOW_QUEUE = 'calendar.window';
export const WINDOW_SWEEP_QUEUE = 'calendar.window-sweep';
export const WINDOW_SWEEP_MS = 5 * 60_000;

export interface WindowDeps {
  db: Db;
  clock: Clock;
  events: EventBus;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  devices: DeviceMaintenance;
  helpdesk: HelpdeskSchedule;
  markers: VideoMarkers;
}

const systemOrigin = (tenantId: number): AuditOrigin => ({ tenantId, userId: null, username: 'system', ip: null, userAgent: null });
const markerRef = (eventId: number, occurrence: string) => `calendar:${eventId}:${occurrence}`;

/**
 * Maintenance windows. `reconcile` compares what an event asks for now (an occurrence in progress or not) with the
 * window in force (`calendar_window_runs`), starts or stops it, and leaves one fire-once job (dedupe key: event and
 * time) at the next start or end. Jobs live in the database, so windows survive restarts; a job left from an older
 * version of the event only reconciles again. A periodic sweep catches anything missed.
 */
export function createWindows(deps: WindowDeps) {
  const { db, clock } = deps;
  const queues = new Map<string, Promise<void>>();

  async function start(row: repo.EventRow, occ: Occurrence, now: Date) {
    const tenantId = row.tenant_id;
    let targets: { id: number; type: string }[] = [];
    let siteId = row.site_id;
    if (row.device_id !== null) {
      const [device] = await deps.devices.devices(tenantId, [row.device_id]);
      if (device) {
        targets = [device];
        siteId = device.assetId ?? siteId;
      }
    } else if (siteId !== null) targets = await deps.devices.devicesOfSite(tenantId, siteId);
    const ids = targets.map((t) => t.id);
    const already = new Set(await deps.devices.inMaintenance(tenantId, ids));
    const note = `Maintenance window: ${row.title}`;
    const switchedOn = await deps.devices.set(
      tenantId,
      ids.filter((id) => !already.has(id)),
      true,
      note,
    );
    const slaSites = siteId !== null ? [siteId] : [];
    await deps.helpdesk.pauseSla(tenantId, slaSites, now, `${note} (until ${occ.end.toISOString()})`);
    const cameras = targets.filter((t) => t.type === 'CAMERA').map((t) => t.id);
    await deps.markers.mark(tenantId, cameras, { ref: markerRef(row.id, occ.local), label: note, from: occ.start, to: occ.end });
    await repo.insertRun(db, {
      tenant_id: tenantId,
      event_id: row.id,
      title: row.title,
      occurrence: occ.local,
      starts_at: occ.start,
      ends_at: occ.end,
      site_id: siteId,
      device_ids: ids,
      switched_on: switchedOn,
      sla_site_ids: slaSites,
    });
    await writeActivity(db, systemOrigin(tenantId), {
      action: 'calendar.window-start',
      object: { type: 'calendar_event', id: row.id },
      after: { occurrence: occ.local, until: occ.end.toISOString(), devices: switchedOn, sites: slaSites },
    });
    deps.events.emit({ type: 'calendar.window', tenantId, payload: { eventId: row.id, assetId: siteId, deviceIds: ids, active: true } });
  }

  async function stop(run: NonNullable<Awaited<ReturnType<typeof repo.findRun>>>, now: Date) {
    const tenantId = run.tenant_id;
    const others = await repo.otherRuns(db, tenantId, run.event_id);
    const heldDevices = new Set(others.flatMap((o) => o.device_ids));
    const heldSites = new Set(others.flatMap((o) => o.sla_site_ids));
    await repo.deleteRun(db, tenantId, run.event_id);
    const note = `Maintenance window ended: ${run.title}`;
    const off = await deps.devices.set(
      tenantId,
      run.switched_on.filter((id) => !heldDevices.has(id)),
      false,
      note,
    );
    await deps.helpdesk.resumeSla(
      tenantId,
      run.sla_site_ids.filter((s) => !heldSites.has(s)),
      now,
      note,
    );
    if (now < run.ends_at) await deps.markers.end(tenantId, markerRef(run.event_id, run.occurrence), now);
    await writeActivity(db, systemOrigin(tenantId), {
      action: 'calendar.window-end',
      object: { type: 'calendar_event', id: run.event_id },
      after: { occurrence: run.occurrence, devices: off, early: now < run.ends_at },
    });
    deps.events.emit({
      type: 'calendar.window',
      tenantId,
      payload: { eventId: run.event_id, assetId: run.site_id, deviceIds: run.device_ids, active: false },
    });
  }

  async function reconcileNow(tenantId: number, eventId: number) {
    const now = clock.now();
    const row = await repo.findEvent(db, tenantId, eventId);
    const run = await repo.findRun(db, tenantId, eventId);
    const occ = row && row.kind === 'maintenance_window' ? currentOrNext(scheduleOf(row), now) : null;
    const want = occ && occ.start <= now ? occ : null;
    const same =
      run &&
      want &&
      row &&
      run.occurrence === want.local &&
      run.ends_at.getTime() === want.end.getTime() &&
      run.site_id === (row.site_id ?? run.site_id) &&
      (row.device_id === null || (run.device_ids.length === 1 && run.device_ids[0] === row.device_id));
    if (run && !same) await stop(run, now);
    if (want && row && !same) await start(row, want, now);
    const next = occ ? (occ.start <= now ? occ.end : occ.start) : null;
    if (next) {
      await enqueueJob(db, {
        tenantId,
        queue: WINDOW_QUEUE,
        runAt: next,
        payload: { tenantId, eventId },
        dedupeKey: `${tenantId}:${eventId}:${next.toISOString()}`,
      });
    }
  }

  /** One reconcile at a time per event in this process (a request and a timer may meet). */
  function reconcile(tenantId: number, eventId: number): Promise<void> {
    const key = `${tenantId}:${eventId}`;
    const previous = queues.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => reconcileNow(tenantId, eventId));
    const tail = run.catch(() => undefined);
    queues.set(key, tail);
    void tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    return run;
  }

  return {
    reconcile,
    /** Every window that has not ended, of every tenant. */
    async sweep() {
      const now = clock.now();
      const open = (await repo.openWindows(db, now)).map((w) => ({ tenantId: w.tenant_id, eventId: w.id }));
      const running = (await repo.allRuns(db)).map((r) => ({ tenantId: r.tenant_id, eventId: r.event_id }));
      const seen = new Set<string>();
      for (const w of [...running, ...open]) {
        const key = `${w.tenantId}:${w.eventId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        try {
          await reconcile(w.tenantId, w.eventId);
        } catch (err) {
          deps.log.error({ err, eventId: w.eventId }, 'maintenance window reconcile failed');
        }
      }
    },
    /** The window in force on a device, if any. */
    async activeOn(tenantId: number, deviceId: number) {
      const run = await repo.runOfDevice(db, tenantId, deviceId);
      return run
        ? { eventId: run.event_id, title: run.title, startedAt: run.starts_at.toISOString(), until: run.ends_at.toISOString() }
        : null;
    },
  };
}

export type Windows = ReturnType<typeof createWindows>;
