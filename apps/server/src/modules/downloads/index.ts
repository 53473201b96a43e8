import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.ts';
import { createLocalBlobStore } from '../../platform/blobs.ts';
import { helpdeskOf } from '../helpdesk/index.ts';
import { sitesOf } from '../sites/index.ts';
import { exportsOf } from './registry.ts';
import { downloadRoutes } from './routes.ts';
import { createExportRunner, EXPORT_LEASE_SECONDS, EXPORT_QUEUE } from './runner.ts';
import { createDownloadService, type DownloadService } from './service.ts';
import { signInsSource } from './sources/sign-ins.ts';
import { siteSources } from './sources/sites.ts';
import { ticketsSource } from './sources/tickets.ts';
import { usersSource } from './sources/users.ts';

const CLEANUP_QUEUE = 'downloads.cleanup';
const CLEANUP_EVERY_MS = 5 * 60_000;

/** Tests reach the service of an app through its HTTP server. */
const byServer = new WeakMap<object, DownloadService>();
export const downloadsOf = (server: object) => byServer.get(server);

/**
 * Background exports and the downloads list of SPEC 2.8: export jobs on the platform queue, files in the blob
 * store, expiry. Other domains add export sources and download providers through `exportsOf(context)`.
 */
export function downloadsModule(app: FastifyInstance, context: AppContext) {
  const registry = exportsOf(context);
  registry.registerSource(usersSource(context.db));
  registry.registerSource(signInsSource(context.db));
  // The other domains' lists, through their own services, when those domains are part of this app.
  if (helpdeskOf(app.server)) registry.registerSource(ticketsSource(() => helpdeskOf(app.server)?.tickets));
  if (sitesOf(app.server)) for (const source of siteSources(context.db, context.events)) registry.registerSource(source);
  const blobs = createLocalBlobStore(join(context.config.dataDir, 'blobs'));
  const runner = createExportRunner({
    db: context.db,
    blobs,
    registry,
    events: context.events,
    retentionHours: async (tenantId) => (await context.customers.settings(tenantId)).downloadRetentionHours,
    log: app.log,
  });
  const downloads = createDownloadService({
    db: context.db,
    blobs,
    registry,
    runner,
    events: context.events,
    poke: () => context.jobs.poke(),
    log: app.log,
  });
  byServer.set(app.server, downloads);
  downloadRoutes(app, { downloads });
  context.jobs.register(EXPORT_QUEUE, (job) => runner.run(job), { leaseSeconds: EXPORT_LEASE_SECONDS });
  context.jobs.register(CLEANUP_QUEUE, async () => downloads.cleanup());
  context.jobs.every(CLEANUP_QUEUE, CLEANUP_EVERY_MS);
}
