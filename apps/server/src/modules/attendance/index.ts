import type { CustomerSettings } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { ExportRegistry } from '../downloads/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import { attendanceExport } from './exports.ts';
import { deleteUploads, staleUploads } from './photos.ts';
import { attendanceRoutes } from './routes.ts';
import { type AttendanceService, type AttendanceTickets, createAttendanceService, type SiteStills, SNAPSHOT_QUEUE } from './service.ts';

export type { AttendanceTickets, SiteStills } from './service.ts';

export const PHOTO_CLEANUP_QUEUE = 'attendance.photos.cleanup';
const PHOTO_CLEANUP_EVERY_MS = 60 * 60_000;
/** A photo uploaded for a check-in that never came (refused, or discarded on the phone) is kept this long. */
const UNCLAIMED_PHOTO_TTL_MS = 24 * 60 * 60_000;

export interface AttendancePorts {
  db: Db;
  events: EventBus;
  jobs: JobWorker;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Sites: their coordinates and who sees them. */
  directory: SiteDirectory;
  users: UserDirectory;
  /** The tenant's geofence radius, and whether a check-in needs a camera snapshot. */
  settings(tenantId: number): Promise<Pick<CustomerSettings, 'attendanceGeofenceMeters' | 'attendanceSnapshotRequired'>>;
  /** The helpdesk's ticket service: a check-in moves the caller's open tickets at the site to INPROGRESS. */
  tickets: AttendanceTickets;
  /** The video module's stills of a site's cameras. */
  stills: SiteStills;
  blobs: BlobStore;
  exports: ExportRegistry;
}

export interface AttendancePort {
  service: AttendanceService;
}

/** Attendance (issue 16): geofenced check-in and check-out at sites, the camera snapshot, hours and missing check-outs. */
export function createAttendanceModule(ports: AttendancePorts): DomainModule<AttendancePort> {
  const attendance = createAttendanceService({ ...ports, poke: () => ports.jobs.poke() });
  ports.exports.registerSource(attendanceExport(attendance));
  return {
    ports: { service: attendance },
    async register(app) {
      await app.register(async (scope) => attendanceRoutes(scope, { attendance }));
      ports.jobs.register(
        SNAPSHOT_QUEUE,
        async (job) => {
          const recordId = Number(job.payload.recordId);
          if (job.tenantId === null || !Number.isInteger(recordId)) return { skipped: true };
          return attendance.takeSnapshot(job.tenantId, recordId);
        },
        { leaseSeconds: 60 },
      );
      ports.jobs.register(PHOTO_CLEANUP_QUEUE, async () => {
        const stale = await staleUploads(ports.db, new Date(ports.clock.now().getTime() - UNCLAIMED_PHOTO_TTL_MS));
        for (const row of stale) await ports.blobs.delete(row.blob_key);
        await deleteUploads(
          ports.db,
          stale.map((r) => r.uid),
        );
        return { removed: stale.length };
      });
      ports.jobs.every(PHOTO_CLEANUP_QUEUE, PHOTO_CLEANUP_EVERY_MS);
    },
  };
}
