import { type DownloadJob, EVENT_TYPES, type ExportCreate } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { BlobStore } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import { cancelJob, enqueueJob } from '../../platform/jobs/queue.ts';
import type { Clock } from '../../platform/module.ts';
import { issueMessage } from '../../platform/validation-messages.ts';
import { toDownloadJob } from './mapper.ts';
import type { ExportRegistry, ExportScope } from './registry.ts';
import * as repo from './repository.ts';
import { EXPORT_MAX_ATTEMPTS, EXPORT_QUEUE, type ExportRunner } from './runner.ts';

/** A user runs at most this many exports at once. */
export const MAX_ACTIVE_EXPORTS = 5;
const EXPIRED_BATCH = 200;

export interface DownloadServiceDeps {
  db: Db;
  blobs: BlobStore;
  registry: ExportRegistry;
  runner: ExportRunner;
  events: EventBus;
  /** Looks for work now instead of at the next poll. */
  poke(): void;
  /** Decides which files are past their expiry. */
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

const scopeOf = (auth: AuthContext): ExportScope => ({
  tenantId: auth.tenantId,
  userId: auth.userId,
  roles: auth.roles,
  permissions: [...auth.permissions],
});

/** The export request as callers write it (the format is CSV unless named). */
type ExportCreateInput = Omit<ExportCreate, 'format'> & { format?: ExportCreate['format'] };

const stamp = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
/** A file name that is safe on every system and in a Content-Disposition header. */
const fileName = (name: string, ext = 'csv') => `${name.replace(/[^\p{L}\p{N} ._()-]+/gu, '_').slice(0, 120) || 'export'}.${ext}`;

/** A partial export file untouched this long belongs to a write that died with its process. */
const PARTIAL_MAX_IDLE_MS = 15 * 60_000;

export function createDownloadService(deps: DownloadServiceDeps) {
  const { db, blobs, registry, runner, events, log } = deps;

  async function ownJob(auth: AuthContext, jobId: number) {
    const job = await repo.findOwnJob(db, auth.tenantId, auth.userId, jobId);
    if (!job) throw notFound('Download not found');
    return job;
  }
  async function view(auth: AuthContext, job: repo.JobRow): Promise<DownloadJob> {
    return toDownloadJob(job, await repo.tasksOf(db, auth.tenantId, [job.id]));
  }
  async function removeFiles(keys: string[]) {
    for (const key of keys) {
      await blobs.delete(key).catch((err) => log.warn({ err, key }, 'download file not removed'));
    }
  }

  /**
   * Starts an export for a user with these rights: a request's, or a schedule's owner's as they are now. `notify`
   * sends an inbox item when the file is ready (scheduled reports).
   */
  async function startExportAs(scope: ExportScope, body: ExportCreateInput, opts: { notify?: boolean } = {}): Promise<DownloadJob> {
    const source = registry.source(body.kind);
    if (!source) throw notFound('Unknown export');
    if (!source.allowed(scope)) throw forbidden();
    let params: Record<string, unknown> = body.params;
    if (source.params) {
      const parsed = source.params.safeParse(body.params);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw badRequest(issue ? issueMessage(issue) : 'Validation failed', 'validation_error');
      }
      params = parsed.data as Record<string, unknown>;
    }
    if ((await repo.countActiveJobs(db, scope.tenantId, scope.userId)) >= MAX_ACTIVE_EXPORTS) {
      throw conflict(`At most ${MAX_ACTIVE_EXPORTS} exports can run at once; wait for one to finish.`, 'too_many_exports');
    }
    const name = body.name ?? `${source.label} ${stamp(new Date())}`;
    const jobId = await db.transaction().execute(async (trx) => {
      const id = await repo.insertJob(
        trx,
        {
          tenantId: scope.tenantId,
          userId: scope.userId,
          kind: source.kind,
          name,
          params,
          scope: { roles: scope.roles, permissions: scope.permissions },
          format: body.format ?? 'csv',
          notify: opts.notify ?? false,
        },
        fileName(name, body.format ?? 'csv'),
      );
      const queueJobId = await enqueueJob(trx, {
        tenantId: scope.tenantId,
        queue: EXPORT_QUEUE,
        payload: { downloadJobId: id },
        maxAttempts: EXPORT_MAX_ATTEMPTS,
      });
      await repo.updateJob(trx, scope.tenantId, id, { queue_job_id: queueJobId });
      return id;
    });
    deps.poke();
    events.emit({
      type: EVENT_TYPES.jobProgress,
      tenantId: scope.tenantId,
      userIds: [scope.userId],
      payload: { jobId, kind: source.kind, status: 'starting', progress: 0 },
    });
    const job = await repo.findOwnJob(db, scope.tenantId, scope.userId, jobId);
    if (!job) throw notFound('Download not found');
    return toDownloadJob(job, await repo.tasksOf(db, scope.tenantId, [job.id]));
  }

  return {
    /** The export sources this user may run. */
    sources(auth: AuthContext) {
      const scope = scopeOf(auth);
      return registry
        .sources()
        .filter((s) => s.allowed(scope))
        .map((s) => ({ kind: s.kind, label: s.label, columns: s.columns.map((c) => c.header) }))
        .sort((a, b) => a.label.localeCompare(b.label));
    },

    startExport: (auth: AuthContext, body: ExportCreateInput): Promise<DownloadJob> => startExportAs(scopeOf(auth), body),
    startExportAs,

    /** SPEC 7 GET /api/batch-playback-download/: the caller's exports and every provider's jobs, newest first. */
    async list(auth: AuthContext, limit: number) {
      const [own, total] = await Promise.all([
        repo.listOwnJobs(db, auth.tenantId, auth.userId, limit),
        repo.countOwnJobs(db, auth.tenantId, auth.userId),
      ]);
      const tasks = await repo.tasksOf(
        db,
        auth.tenantId,
        own.map((j) => j.id),
      );
      const jobs = own.map((j) =>
        toDownloadJob(
          j,
          tasks.filter((t) => t.job_id === j.id),
        ),
      );
      let totalCount = total;
      for (const provider of registry.providers()) {
        try {
          const theirs = await provider.list(auth, limit);
          jobs.push(...theirs);
          totalCount += theirs.length;
        } catch (err) {
          log.error({ err, kind: provider.kind }, 'download provider failed to list');
        }
      }
      jobs.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.jobId - a.jobId);
      return { jobs: jobs.slice(0, limit), totalCount };
    },

    /** Refuses a caller whose job of this kind this is not (404). */
    async ownJobOf(auth: AuthContext, jobId: number, kind?: string) {
      const provider = kind ? registry.provider(kind) : undefined;
      if (provider) return provider.own?.(auth, jobId);
      return ownJob(auth, jobId);
    },

    /** SPEC 7 PUT: the file of task `tid` was downloaded; the job is completed once all its files were. */
    async markDownloaded(auth: AuthContext, jobId: number, tid: string, kind?: string) {
      const provider = kind ? registry.provider(kind) : undefined;
      if (provider) return provider.markDownloaded(auth, jobId, tid);
      await ownJob(auth, jobId);
      const task = await repo.findTask(db, auth.tenantId, jobId, tid);
      if (!task) throw notFound('Download not found');
      if (task.status !== 'ready-to-download' && task.status !== 'completed') throw conflict('The file is not ready yet', 'not_ready');
      await repo.updateTask(db, auth.tenantId, task.id, { is_read: true, status: 'completed', progress: 100 });
      const tasks = await repo.tasksOf(db, auth.tenantId, [jobId]);
      if (tasks.every((t) => t.status === 'completed' || t.status === 'error')) {
        await repo.updateJob(db, auth.tenantId, jobId, { status: 'completed' });
      }
      return view(auth, await ownJob(auth, jobId));
    },

    /** SPEC 7 DELETE: stops the work if it runs, removes the files and the job from the list. */
    async remove(auth: AuthContext, jobId: number, kind?: string) {
      const provider = kind ? registry.provider(kind) : undefined;
      if (provider) {
        await provider.remove(auth, jobId);
        return;
      }
      const job = await ownJob(auth, jobId);
      const keys = await repo.blobKeysOf(db, auth.tenantId, jobId);
      await repo.deleteJob(db, auth.tenantId, jobId);
      if (job.queue_job_id) await cancelJob(db, auth.tenantId, job.queue_job_id);
      runner.stopLocal(jobId);
      // A file the export finishes after this point is removed by the export itself (its job is gone).
      await removeFiles(keys);
      events.emit({
        type: EVENT_TYPES.jobProgress,
        tenantId: auth.tenantId,
        userIds: [auth.userId],
        payload: { jobId, kind: job.kind, status: 'deleted', progress: 0 },
      });
    },

    /** The finished file of a task of the caller's own job. */
    async file(auth: AuthContext, jobId: number, tid: string) {
      await ownJob(auth, jobId);
      const task = await repo.findTask(db, auth.tenantId, jobId, tid);
      if (!task?.blob_key || (task.status !== 'ready-to-download' && task.status !== 'completed')) throw notFound('The file is not ready');
      const blob = await blobs.open(task.blob_key);
      if (!blob) throw notFound('The file has expired');
      return { ...blob, name: task.name, contentType: task.content_type ?? 'application/octet-stream' };
    },

    /**
     * The periodic cleanup: files past their retention go with their jobs, and a job whose queue job ended
     * without it (a worker that died on its last attempt) is failed instead of showing 'processing' forever.
     */
    async cleanup() {
      let expired = 0;
      for (;;) {
        const batch = await repo.expiredJobs(db, EXPIRED_BATCH, deps.clock.now());
        for (const job of batch) {
          const keys = await repo.blobKeysOf(db, job.tenant_id, job.id);
          await repo.deleteJob(db, job.tenant_id, job.id);
          await removeFiles(keys);
        }
        expired += batch.length;
        if (batch.length < EXPIRED_BATCH) break;
      }
      let orphaned = 0;
      for (const job of await repo.orphanedJobs(db)) {
        const row = await repo.findJob(db, job.tenant_id, job.id);
        if (!row) continue;
        const [task] = await repo.tasksOf(db, job.tenant_id, [job.id]);
        await runner.fail(row, task?.id, job.last_error ?? `export ${job.queue_status ?? 'lost'}`);
        orphaned++;
      }
      const partial = await blobs.sweepPartial(PARTIAL_MAX_IDLE_MS);
      if (partial > 0) log.warn({ partial }, 'removed partial export files left by an interrupted write');
      return { expired, orphaned, partial };
    },
  };
}
export type DownloadService = ReturnType<typeof createDownloadService>;
