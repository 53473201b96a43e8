import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { DeviceMaintenance } from '../devices/index.ts';
import type { HelpdeskSchedule } from '../helpdesk/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import type { VideoMarkers } from '../video/index.ts';
import { calendarRoutes } from './routes.ts';
import { type CalendarService, type ClusterSites, createCalendarService } from './service.ts';
import { createWindows, WINDOW_QUEUE, WINDOW_SWEEP_MS, WINDOW_SWEEP_QUEUE, type Windows } from './windows.ts';

export type { ClusterSites } from './service.ts';

export interface CalendarPorts {
  db: Db;
  events: EventBus;
  jobs: JobWorker;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Who sees which site, site names and device lookups. */
  directory: SiteDirectory;
  /** Assignees' names. */
  users: UserDirectory;
  /** Work-order and escalation due times; SLA pauses during windows. */
  helpdesk: HelpdeskSchedule;
  /** Maintenance mode switched by windows. */
  devices: DeviceMaintenance;
  /** Markers on the recordings of a window's cameras. */
  markers: VideoMarkers;
  /** Sites of a cluster (the per-cluster filter). */
  clusters: ClusterSites;
}

export interface CalendarPort {
  service: CalendarService;
  /** Maintenance windows (tests and benches reconcile or sweep directly). */
  windows: Windows;
}

/** The calendar: events and recurring series, their occurrences with the helpdesk's due times, maintenance windows. */
export function createCalendarModule(ports: CalendarPorts): DomainModule<CalendarPort> {
  const { db, clock } = ports;
  const windows = createWindows({
    db,
    clock,
    events: ports.events,
    log: ports.log,
    devices: ports.devices,
    helpdesk: ports.helpdesk,
    markers: ports.markers,
  });
  const service = createCalendarService({
    db,
    clock,
    events: ports.events,
    directory: ports.directory,
    users: ports.users,
    helpdesk: ports.helpdesk,
    clusters: ports.clusters,
    // The change is committed: a failed reconcile is logged and left to the periodic sweep.
    windowChanged: (tenantId, eventId) =>
      windows.reconcile(tenantId, eventId).catch((err) => ports.log.error({ err, eventId }, 'maintenance window reconcile failed')),
  });
  return {
    ports: { service, windows },
    register(app) {
      calendarRoutes(app, { calendar: service, windows, directory: ports.directory });
      ports.jobs.register(
        WINDOW_QUEUE,
        async (job) => {
          const { tenantId, eventId } = job.payload as { tenantId: number; eventId: number };
          await windows.reconcile(tenantId, eventId);
          return undefined;
        },
        { leaseSeconds: 60 },
      );
      ports.jobs.register(
        WINDOW_SWEEP_QUEUE,
        async () => {
          await windows.sweep();
          return undefined;
        },
        { leaseSeconds: 120 },
      );
      ports.jobs.every(WINDOW_SWEEP_QUEUE, WINDOW_SWEEP_MS);
    },
  };
}
