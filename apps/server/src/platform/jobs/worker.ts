import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { type Clock, systemClock } from '../module.ts';
import { enqueueJob } from './queue.ts';

export interface JobContext {
  id: number;
  tenantId: number | null;
  payload: Record<string, unknown>;
  attempt: number;
  /** Aborted when the job is cancelled or the worker stops. */
  signal: AbortSignal;
  /** Records progress (0–100) and renews the lease. */
  progress(percent: number): Promise<void>;
}

export type JobHandler = (job: JobContext) => Promise<Record<string, unknown> | undefined>;

interface Registered {
  handler: JobHandler;
  leaseSeconds: number;
}

export interface WorkerOptions {
  pollMs?: number;
  concurrency?: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /**
   * A queued job is due once its time has come by the database's clock or by this one, which tests step ahead
   * (a job just enqueued at the database's `now()` is due at once). Leases stay on the database's time: they
   * measure real work.
   */
  clock?: Clock;
}

export type JobOutcome = 'completed' | 'retry' | 'failed' | 'cancelled';
export type JobObserver = (queue: string, outcome: JobOutcome, seconds: number, result?: Record<string, unknown>) => void;

const backoffSeconds = (attempt: number) => Math.min(300, 2 ** attempt);

/**
 * Runs jobs from the `jobs` table with leases: a worker that dies leaves its lease to expire and another picks
 * the job up again (at-least-once), so handlers must be idempotent. Retries back off exponentially.
 */
export function createJobWorker(db: Db, options: WorkerOptions) {
  const workerId = `w-${randomUUID().slice(0, 8)}`;
  const handlers = new Map<string, Registered>();
  const running = new Map<number, AbortController>();
  const pollMs = options.pollMs ?? 500;
  const concurrency = options.concurrency ?? 4;
  const clock = options.clock ?? systemClock;
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let stopping = false;
  let ticking = false;
  const schedules: NodeJS.Timeout[] = [];
  /**
   * Enqueues the current slot of each periodic queue, run on start too so that startup work happens at once. Their
   * timers run only while the worker is started: a stopped worker enqueues nothing into a database being closed.
   */
  const slotEnqueuers: Array<{ enqueueSlot: () => void; intervalMs: number }> = [];
  let observer: JobObserver | null = null;

  async function claim(limit: number) {
    const queues = [...handlers.keys()];
    if (queues.length === 0 || limit <= 0) return [];
    return db
      .updateTable('jobs')
      .set({
        status: 'running',
        locked_by: workerId,
        locked_until: sql`now() + make_interval(secs => 60)`,
        attempts: sql`attempts + 1`,
        updated_at: sql`now()`,
      })
      .where(
        'id',
        'in',
        db
          .selectFrom('jobs')
          .select('id')
          .where('queue', 'in', queues)
          .where((eb) =>
            eb.or([
              eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', sql<Date>`greatest(now(), ${clock.now()}::timestamptz)`)]),
              eb.and([eb('status', '=', 'running'), eb('locked_until', '<', sql<Date>`now()`)]),
            ]),
          )
          .orderBy('run_at')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'tenant_id', 'queue', 'payload', 'attempts', 'max_attempts'])
      .execute();
  }

  async function stillOurs(id: number) {
    const row = await db.selectFrom('jobs').select(['status', 'locked_by']).where('id', '=', id).executeTakeFirst();
    return row?.status === 'running' && row.locked_by === workerId;
  }

  async function run(job: Awaited<ReturnType<typeof claim>>[number]) {
    const registered = handlers.get(job.queue);
    if (!registered) return;
    const controller = new AbortController();
    running.set(job.id, controller);
    const renew = async (progress?: number) => {
      if (!(await stillOurs(job.id))) {
        controller.abort(new Error('cancelled'));
        return;
      }
      await db
        .updateTable('jobs')
        .set({
          locked_until: sql`now() + make_interval(secs => ${registered.leaseSeconds})`,
          updated_at: sql`now()`,
          ...(progress === undefined ? {} : { progress }),
        })
        .where('id', '=', job.id)
        .where('locked_by', '=', workerId)
        .execute();
    };
    const heartbeat = setInterval(() => void renew().catch(() => undefined), (registered.leaseSeconds * 1000) / 3);
    const started = performance.now();
    const settled = (outcome: JobOutcome, result?: Record<string, unknown>) =>
      observer?.(job.queue, outcome, (performance.now() - started) / 1000, result);
    try {
      await renew();
      const result = await registered.handler({
        id: job.id,
        tenantId: job.tenant_id,
        payload: job.payload,
        attempt: job.attempts,
        signal: controller.signal,
        progress: (percent) => renew(Math.max(0, Math.min(100, percent))),
      });
      await db
        .updateTable('jobs')
        .set({
          status: 'completed',
          progress: 100,
          result: JSON.stringify(result ?? null),
          finished_at: sql`now()`,
          updated_at: sql`now()`,
          locked_by: null,
          locked_until: null,
        })
        .where('id', '=', job.id)
        .where('status', '=', 'running')
        .where('locked_by', '=', workerId)
        .execute();
      settled('completed', result);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (controller.signal.aborted && !stopping) {
        settled('cancelled');
        options.log.info({ job: job.id, queue: job.queue }, 'job cancelled');
      } else if (stopping) {
        // Shutting down: hand the job back so the next worker resumes it.
        await db
          .updateTable('jobs')
          .set({ status: 'queued', locked_by: null, locked_until: null, attempts: sql`greatest(attempts - 1, 0)` })
          .where('id', '=', job.id)
          .where('locked_by', '=', workerId)
          .where('status', '=', 'running')
          .execute();
      } else {
        const final = job.attempts >= job.max_attempts;
        settled(final ? 'failed' : 'retry');
        options.log.warn({ job: job.id, queue: job.queue, attempt: job.attempts, err: message }, final ? 'job failed' : 'job will retry');
        await db
          .updateTable('jobs')
          .set({
            status: final ? 'failed' : 'queued',
            last_error: message.slice(0, 2000),
            run_at: sql`now() + make_interval(secs => ${backoffSeconds(job.attempts)})`,
            locked_by: null,
            locked_until: null,
            updated_at: sql`now()`,
            ...(final ? { finished_at: sql`now()` } : {}),
          })
          .where('id', '=', job.id)
          .where('status', '=', 'running')
          .where('locked_by', '=', workerId)
          .execute();
      }
    } finally {
      clearInterval(heartbeat);
      running.delete(job.id);
    }
  }

  async function tick() {
    if (ticking || stopped) return;
    ticking = true;
    try {
      const jobs = await claim(concurrency - running.size);
      for (const job of jobs) void run(job).catch((err) => options.log.error({ err }, 'job runner failed'));
    } catch (err) {
      options.log.error({ err }, 'job poll failed');
    } finally {
      ticking = false;
    }
  }

  return {
    id: workerId,
    register(queue: string, handler: JobHandler, opts: { leaseSeconds?: number } = {}) {
      handlers.set(queue, { handler, leaseSeconds: opts.leaseSeconds ?? 60 });
    },
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(() => void tick(), pollMs);
      for (const { enqueueSlot, intervalMs } of slotEnqueuers) {
        schedules.push(setInterval(enqueueSlot, intervalMs));
        enqueueSlot();
      }
      void tick();
    },
    /**
     * Runs a queue every interval across all nodes: each slot is enqueued under its own dedupe key, so however
     * many workers run, one job per slot exists.
     */
    every(queue: string, intervalMs: number, tenantId: number | null = null) {
      const enqueueSlot = () =>
        enqueueJob(db, { tenantId, queue, dedupeKey: `${queue}:${tenantId ?? 0}:${Math.floor(Date.now() / intervalMs)}`, maxAttempts: 1 })
          .then(() => tick())
          .catch((err) => options.log.error({ err, queue }, 'schedule failed'));
      slotEnqueuers.push({ enqueueSlot, intervalMs });
      if (stopped) return;
      schedules.push(setInterval(enqueueSlot, intervalMs));
      void enqueueSlot();
    },
    /** Reports every settled attempt (metrics). */
    observe(fn: JobObserver) {
      observer = fn;
    },
    /** Checks for work now (after an enqueue) instead of waiting for the next poll. */
    poke: () => void tick(),
    async stop() {
      stopped = true;
      stopping = true;
      if (timer) clearInterval(timer);
      for (const schedule of schedules.splice(0)) clearInterval(schedule);
      for (const controller of running.values()) controller.abort(new Error('worker stopping'));
      const deadline = Date.now() + 5000;
      while (running.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    },
    /** Runs every due job until none is left: for tests and benchmarks. */
    async drain() {
      for (;;) {
        const jobs = await claim(concurrency);
        if (jobs.length === 0 && running.size === 0) return;
        await Promise.all(jobs.map(run));
        if (jobs.length === 0) await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
export type JobWorker = ReturnType<typeof createJobWorker>;
