import { BACKUP_MESSAGES, backupListSchema, backupStartedSchema } from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { originOf, writeActivity } from '../../platform/audit.ts';
import { requireAuth, requireTenant, roleGuard } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { conflict, forbidden } from '../../platform/errors.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import { backupJobPending } from './repository.ts';
import type { BackupService } from './service.ts';

export const BACKUP_QUEUE = 'backups.run';
export const SCHEDULED_BACKUP_QUEUE = 'backups.scheduled';

/**
 * /api/admin/backups/: the installation's backups, for the system administrators of its own tenant (a backup holds
 * every tenant, so another tenant's administrators never see them).
 */
export function backupRoutes(app: FastifyInstance, deps: { db: Db; jobs: JobWorker; backups: BackupService; installTenant: string }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['backups'];
  const ofInstall = (request: FastifyRequest) => requireTenant(request).slug === deps.installTenant;
  const installAdmin = async (request: FastifyRequest) => {
    await roleGuard('sysadmin')(request);
    if (!ofInstall(request)) throw forbidden(BACKUP_MESSAGES.onlyInstallAdmins);
  };
  r.get(
    '/api/admin/backups/',
    { preHandler: roleGuard('sysadmin'), schema: { tags, response: { 200: backupListSchema } } },
    async (request) =>
      ofInstall(request) ? { available: true, ...(await deps.backups.list()) } : { available: false, schedule: null, items: [] },
  );
  r.post(
    '/api/admin/backups/',
    { preHandler: installAdmin, schema: { tags, response: { 202: backupStartedSchema } } },
    async (request, reply) => {
      if (await backupJobPending(deps.db, [BACKUP_QUEUE, SCHEDULED_BACKUP_QUEUE])) throw conflict(BACKUP_MESSAGES.alreadyWaiting);
      const jobId = await deps.db.transaction().execute(async (trx) => {
        const id = await enqueueJob(trx, {
          tenantId: null,
          queue: BACKUP_QUEUE,
          payload: { reason: 'manual', startedBy: requireAuth(request).userId },
          maxAttempts: 1,
        });
        await writeActivity(trx, originOf(request), { action: 'backup.start', detail: { jobId: id } });
        return id;
      });
      deps.jobs.poke();
      return reply.status(202).send({ jobId, message: BACKUP_MESSAGES.started });
    },
  );
}
