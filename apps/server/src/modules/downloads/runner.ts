import { DOWNLOAD_MESSAGES, EVENT_TYPES, type JobEventPayload } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type BlobStore, blobKey } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobContext } from '../../platform/jobs/worker.ts';
import type { Clock } from '../../platform/module.ts';
import { describeFilters, wallClock } from './cells.ts';
import { encode, FORMAT_INFO, PDF_MAX_ROWS } from './formats.ts';
import type { ExportPage, ExportRegistry, ExportScope } from './registry.ts';
import * as repo from './repository.ts';

export const EXPORT_QUEUE = 'downloads.export';
export const EXPORT_MAX_ATTEMPTS = 3;
export const EXPORT_LEASE_SECONDS = 30;
const DEFAULT_PAGE_SIZE = 1000;
const DEFAULT_MAX_ROWS = 1_000_000;
/** How often a running export looks whether it was stopped from another process. */
const STOP_CHECK_MS = 1000;
const PROGRESS_EVERY_MS = 500;

export interface RunnerDeps {
  db: Db;
  blobs: BlobStore;
  registry: ExportRegistry;
  events: EventBus;
  retentionHours(tenantId: number): Promise<number>;
  /** The tenant's IANA time zone: times in XLSX and PDF files are its local times (UTC when not given). */
  timeZone?(tenantId: number): Promise<string>;
  /** A file's expiry counts from this clock's time when it is ready (or failed). */
  clock: Clock;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** SPEC 9: a failed page is retried up to 3 times with a 2 s wait. */
  pageRetries?: number;
  retryWaitMs?: number;
}

class Stopped extends Error {
  constructor() {
    super('export stopped');
  }
}

/** A failure that another attempt cannot cure (the user lost the right to export, the filters are invalid). */
class Permanent extends Error {}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Stopped());
    });
  });

/**
 * Runs export jobs: pages from the source by keyset cursor, each page turned into CSV lines and streamed into
 * the blob store, so that memory holds one page whatever the size of the export. The handler is idempotent:
 * run again after a crash it starts the file afresh (the half-written one never became a blob).
 */
export function createExportRunner(deps: RunnerDeps) {
  const { db, blobs, registry, events, log } = deps;
  const retries = deps.pageRetries ?? 3;
  const retryWaitMs = deps.retryWaitMs ?? 2000;
  /** Exports running in this process, so that a stop asked here takes effect at once. */
  const running = new Map<number, AbortController>();
  const expiryOf = async (tenantId: number) => new Date(deps.clock.now().getTime() + (await deps.retentionHours(tenantId)) * 3600_000);

  function announce(row: Pick<repo.JobRow, 'id' | 'tenant_id' | 'user_id' | 'kind'>, status: string, progress: number) {
    const payload: JobEventPayload = { jobId: row.id, kind: row.kind, status, progress };
    events.emit({ type: EVENT_TYPES.jobProgress, tenantId: row.tenant_id, userIds: [row.user_id], payload });
  }

  async function withRetry<T>(what: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await what();
      } catch (error) {
        if (signal.aborted || attempt >= retries) throw error;
        log.warn({ err: error, attempt: attempt + 1 }, 'export page failed; retrying');
        await sleep(retryWaitMs, signal);
      }
    }
  }

  async function fail(row: repo.JobRow, taskId: number | undefined, reason: string) {
    const expiresAt = await expiryOf(row.tenant_id);
    if (taskId !== undefined)
      await repo.updateTask(db, row.tenant_id, taskId, { status: 'error', description: DOWNLOAD_MESSAGES.exportFailed });
    await repo.updateJob(db, row.tenant_id, row.id, {
      status: 'failed',
      error: reason.slice(0, 500),
      finished_at: new Date(),
      expires_at: expiresAt,
    });
    announce(row, 'failed', 100);
  }

  async function run(job: JobContext): Promise<Record<string, unknown>> {
    const tenantId = job.tenantId as number;
    const id = Number(job.payload.downloadJobId);
    const row = await repo.findJob(db, tenantId, id);
    if (!row || (row.status !== 'starting' && row.status !== 'processing')) return { skipped: true };
    const [task] = await repo.tasksOf(db, tenantId, [id]);
    const source = registry.source(row.kind);
    if (!task || !source) {
      await fail(row, task?.id, 'This export is not available');
      return { failed: true };
    }
    const scope: ExportScope = { tenantId, userId: row.user_id, roles: row.scope.roles ?? [], permissions: row.scope.permissions ?? [] };
    const controller = new AbortController();
    const onAbort = () => controller.abort(new Stopped());
    job.signal.addEventListener('abort', onAbort);
    running.set(id, controller);
    const format = FORMAT_INFO[row.format] ? row.format : 'csv';
    const key = blobKey('exports', tenantId, id, `${task.tid}.${FORMAT_INFO[format].ext}`);
    try {
      if (!source.allowed(scope)) throw new Permanent('not allowed');
      const parsed = source.params ? source.params.safeParse(row.params) : { success: true as const, data: row.params };
      if (!parsed.success) throw new Permanent('invalid export filters');
      const params = parsed.data;
      await repo.updateJob(db, tenantId, id, { status: 'processing', error: null });
      await repo.updateTask(db, tenantId, task.id, {
        status: 'processing',
        progress: 0,
        rows: 0,
        description: DOWNLOAD_MESSAGES.fetchingData,
      });
      announce(row, 'processing', 0);
      const maxRows = Math.min(source.maxRows ?? DEFAULT_MAX_ROWS, format === 'pdf' ? PDF_MAX_ROWS + 1 : Number.MAX_SAFE_INTEGER);
      const pageSize = source.pageSize ?? DEFAULT_PAGE_SIZE;
      const count = source.count;
      const total = count ? Math.min(await withRetry(() => count(scope, params), controller.signal), maxRows) : null;
      // The header is decided before the first line: the file is streamed and never rewritten.
      const columnsFor = source.columnsFor;
      const columns = columnsFor ? await withRetry(() => columnsFor(scope, params), controller.signal) : source.columns;
      let rows = 0;
      let lastReport = 0;

      const report = async () => {
        lastReport = Date.now();
        const progress = total ? Math.min(99, (rows / total) * 100) : 0;
        await repo.updateTask(db, tenantId, task.id, { progress, rows, description: DOWNLOAD_MESSAGES.processingData });
        await job.progress(progress);
        announce(row, 'processing', progress);
      };

      const src = source;
      async function* pages(): AsyncGenerator<ExportPage['rows']> {
        let cursor: string | null = null;
        for (;;) {
          if (controller.signal.aborted) throw new Stopped();
          const limit = Math.min(pageSize, maxRows - rows);
          if (limit <= 0) return;
          const after: string | null = cursor;
          const page: ExportPage = await withRetry(() => src.fetchPage(scope, params, after, limit), controller.signal);
          if (page.rows.length > 0) {
            rows += page.rows.length;
            yield page.rows;
          }
          if (Date.now() - lastReport > PROGRESS_EVERY_MS) await report();
          cursor = page.nextCursor;
          if (!cursor || page.rows.length === 0) return;
          if (src.pageDelayMs) await sleep(src.pageDelayMs, controller.signal);
        }
      }

      // A stop asked from another process is seen within a second, also while a PDF is laid out after the last page.
      let checking = false;
      const watch = setInterval(() => {
        if (checking || controller.signal.aborted) return;
        checking = true;
        repo
          .isRunnable(db, tenantId, id)
          .then((runnable) => runnable || controller.abort(new Stopped()))
          .catch((error: unknown) => log.warn({ err: error }, 'export stop check failed'))
          .finally(() => {
            checking = false;
          });
      }, STOP_CHECK_MS);
      let size: number;
      try {
        const timeZone = (await deps.timeZone?.(tenantId)) ?? 'UTC';
        const filters = describeFilters(params, wallClock(timeZone));
        const bytes = encode(format, { title: row.name, columns, timeZone, filters }, pages(), deps.clock.now(), controller.signal);
        size = await blobs.write(key, bytes, controller.signal);
      } finally {
        clearInterval(watch);
      }
      const expiresAt = await expiryOf(tenantId);
      const kept =
        (await repo.updateTask(db, tenantId, task.id, {
          status: 'ready-to-download',
          progress: 100,
          rows,
          size,
          blob_key: key,
          content_type: FORMAT_INFO[format].contentType,
          description: rows === 0 ? DOWNLOAD_MESSAGES.dataIsEmpty : DOWNLOAD_MESSAGES.fileProcessed,
        })) && (await repo.updateJob(db, tenantId, id, { status: 'ready-to-download', finished_at: new Date(), expires_at: expiresAt }));
      if (!kept) {
        // Stopped while the last page was written: the job is gone, so is its file.
        await blobs.delete(key);
        return { stopped: true };
      }
      announce(row, 'ready-to-download', 100);
      if (row.notify)
        events.emit({
          type: 'export.ready',
          tenantId,
          userIds: [row.user_id],
          payload: { jobId: id, kind: row.kind, name: row.name, format },
        });
      return { rows, size };
    } catch (error) {
      if (job.signal.aborted) throw error; // the worker stops or the queue job was cancelled: the worker decides
      if (error instanceof Stopped || !(await repo.isRunnable(db, tenantId, id))) return { stopped: true };
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof Permanent) {
        await fail(row, task.id, reason);
        return { failed: true };
      }
      if (job.attempt >= EXPORT_MAX_ATTEMPTS) await fail(row, task.id, reason);
      else await repo.updateTask(db, tenantId, task.id, { description: DOWNLOAD_MESSAGES.fetchingData, progress: 0 });
      throw error;
    } finally {
      job.signal.removeEventListener('abort', onAbort);
      running.delete(id);
    }
  }

  return {
    run,
    /** Stops an export running in this process now (other processes notice within a second). */
    stopLocal(jobId: number) {
      running.get(jobId)?.abort(new Stopped());
    },
    fail,
  };
}
export type ExportRunner = ReturnType<typeof createExportRunner>;
