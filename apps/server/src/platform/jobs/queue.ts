import { sql } from 'kysely';
import type { Db } from '../db.ts';

export interface EnqueueOptions {
  tenantId: number | null;
  queue: string;
  payload?: Record<string, unknown>;
  /** When the job may start; now by default. */
  runAt?: Date;
  /** A job with the same queue and key that is not finished is not added twice: the timer fires once. */
  dedupeKey?: string;
  maxAttempts?: number;
}

/**
 * Adds a job. Takes the caller's database or transaction, so the job exists exactly when the change that asked
 * for it was committed. Returns the job id, or the id of the job already waiting under the same dedupe key.
 */
export async function enqueueJob(db: Db, options: EnqueueOptions): Promise<number> {
  const inserted = await db
    .insertInto('jobs')
    .values({
      tenant_id: options.tenantId,
      queue: options.queue,
      payload: JSON.stringify(options.payload ?? {}),
      run_at: options.runAt ?? sql<Date>`now()`,
      dedupe_key: options.dedupeKey ?? null,
      max_attempts: options.maxAttempts ?? 5,
    })
    .onConflict((oc) => oc.columns(['queue', 'dedupe_key']).where('dedupe_key', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  const existing = await db
    .selectFrom('jobs')
    .select('id')
    .where('queue', '=', options.queue)
    .where('dedupe_key', '=', options.dedupeKey ?? '')
    .executeTakeFirstOrThrow();
  return existing.id;
}

/** Asks a job to stop: a queued job never starts, a running one sees its signal aborted at the next heartbeat. */
export async function cancelJob(db: Db, tenantId: number | null, jobId: number): Promise<boolean> {
  let query = db
    .updateTable('jobs')
    .set({ status: 'cancelled', finished_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', jobId)
    .where('status', 'in', ['queued', 'running']);
  query = tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', tenantId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Jobs waiting and running per queue, for every tenant (metrics). */
export async function queueDepths(db: Db): Promise<Array<{ queue: string; status: 'queued' | 'running'; count: number }>> {
  const rows = await db
    .selectFrom('jobs')
    .select(['queue', 'status', (eb) => eb.fn.countAll<number>().as('count')])
    .where('status', 'in', ['queued', 'running'])
    .groupBy(['queue', 'status'])
    .execute();
  return rows.map((r) => ({ queue: r.queue, status: r.status as 'queued' | 'running', count: Number(r.count) }));
}
