import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createLocalBlobStore } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import { createExportRegistry, type ExportRegistry } from './registry.ts';
import { downloadRoutes } from './routes.ts';
import { createExportRunner, EXPORT_LEASE_SECONDS, EXPORT_QUEUE } from './runner.ts';
import { createDownloadService, type DownloadService } from './service.ts';

export type { DownloadProvider, ExportColumn, ExportColumnType, ExportRegistry, ExportScope, ExportSource } from './registry.ts';
export type { DownloadService } from './service.ts';

const CLEANUP_QUEUE = 'downloads.cleanup';
const CLEANUP_EVERY_MS = 5 * 60_000;

export interface DownloadsPorts {
  db: Db;
  events: EventBus;
  jobs: JobWorker;
  log: FastifyBaseLogger;
  dataDir: string;
  /** Hours a finished export stays downloadable (a tenant setting). */
  retentionHours(tenantId: number): Promise<number>;
  /** The tenant's IANA time zone (a tenant setting): exported XLSX and PDF times are its local times. */
  timeZone(tenantId: number): Promise<string>;
  clock: Clock;
}

export interface DownloadsPort {
  /** Where domains add their export sources and download providers (each in its own exports.ts). */
  exports: ExportRegistry;
  downloads: DownloadService;
}

/**
 * Background exports and the downloads list of SPEC 2.8: export jobs on the platform queue, files in the blob
 * store, expiry. It knows no domain: sources and providers come from the other modules through `ports.exports`.
 */
export function createDownloadsModule(ports: DownloadsPorts): DomainModule<DownloadsPort> {
  const { db, events, jobs, log } = ports;
  const registry = createExportRegistry();
  const blobs = createLocalBlobStore(join(ports.dataDir, 'blobs'));
  const runner = createExportRunner({
    db,
    blobs,
    registry,
    events,
    retentionHours: ports.retentionHours,
    timeZone: ports.timeZone,
    clock: ports.clock,
    log,
  });
  const downloads = createDownloadService({ db, blobs, registry, runner, events, poke: () => jobs.poke(), clock: ports.clock, log });
  return {
    ports: { exports: registry, downloads },
    register(app) {
      downloadRoutes(app, { downloads });
      jobs.register(EXPORT_QUEUE, (job) => runner.run(job), { leaseSeconds: EXPORT_LEASE_SECONDS });
      jobs.register(CLEANUP_QUEUE, async () => downloads.cleanup());
      jobs.every(CLEANUP_QUEUE, CLEANUP_EVERY_MS);
    },
  };
}
