import { sql, type Updateable } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { DownloadJobsTable, DownloadTasksTable } from './tables.ts';

const jobColumns = [
  'id',
  'tenant_id',
  'user_id',
  'kind',
  'name',
  'params',
  'scope',
  'queue_job_id',
  'format',
  'notify',
  'status',
  'error',
  'created_at',
  'updated_at',
  'finished_at',
  'expires_at',
] as const;
const taskColumns = [
  'id',
  'tid',
  'job_id',
  'name',
  'camera_label',
  'description',
  'status',
  'progress',
  'rows',
  'blob_key',
  'content_type',
  'size',
  'is_read',
  'updated_at',
] as const;

export const findJob = (db: Db, tenantId: number, jobId: number) =>
  db.selectFrom('download_jobs').select(jobColumns).where('tenant_id', '=', tenantId).where('id', '=', jobId).executeTakeFirst();
export type JobRow = NonNullable<Awaited<ReturnType<typeof findJob>>>;

export const findOwnJob = (db: Db, tenantId: number, userId: number, jobId: number) =>
  db
    .selectFrom('download_jobs')
    .select(jobColumns)
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', '=', jobId)
    .executeTakeFirst();

export const listOwnJobs = (db: Db, tenantId: number, userId: number, limit: number) =>
  db
    .selectFrom('download_jobs')
    .select(jobColumns)
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

export const countOwnJobs = async (db: Db, tenantId: number, userId: number) =>
  Number(
    (
      await db
        .selectFrom('download_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const countActiveJobs = async (db: Db, tenantId: number, userId: number) =>
  Number(
    (
      await db
        .selectFrom('download_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .where('status', 'in', ['starting', 'processing'])
        .executeTakeFirstOrThrow()
    ).n,
  );

export const tasksOf = (db: Db, tenantId: number, jobIds: number[]) =>
  jobIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('download_tasks')
        .select(taskColumns)
        .where('tenant_id', '=', tenantId)
        .where('job_id', 'in', jobIds)
        .orderBy('id')
        .execute();
export type TaskRow = Awaited<ReturnType<typeof tasksOf>>[number];

export const findTask = (db: Db, tenantId: number, jobId: number, tid: string) =>
  db
    .selectFrom('download_tasks')
    .select(taskColumns)
    .where('tenant_id', '=', tenantId)
    .where('job_id', '=', jobId)
    .where('tid', '=', tid)
    .executeTakeFirst();

export async function insertJob(
  db: Db,
  job: {
    tenantId: number;
    userId: number;
    kind: string;
    name: string;
    params: Record<string, unknown>;
    scope: { roles: string[]; permissions: string[] };
    format?: 'csv' | 'xlsx' | 'pdf';
    notify?: boolean;
  },
  taskName: string,
) {
  const row = await db
    .insertInto('download_jobs')
    .values({
      tenant_id: job.tenantId,
      user_id: job.userId,
      kind: job.kind,
      name: job.name,
      params: JSON.stringify(job.params),
      scope: JSON.stringify(job.scope),
      format: job.format ?? 'csv',
      notify: job.notify ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('download_tasks').values({ tenant_id: job.tenantId, job_id: row.id, name: taskName }).execute();
  return row.id;
}

export const updateJob = (db: Db, tenantId: number, jobId: number, patch: Updateable<DownloadJobsTable>) =>
  db
    .updateTable('download_jobs')
    .set({ ...patch, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', jobId)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) > 0);

export const updateTask = (db: Db, tenantId: number, taskId: number, patch: Updateable<DownloadTasksTable>) =>
  db
    .updateTable('download_tasks')
    .set({ ...patch, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', taskId)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) > 0);

/** Whether the job still exists and is still meant to run (not stopped, not finished). */
export const isRunnable = async (db: Db, tenantId: number, jobId: number) =>
  Boolean(
    await db
      .selectFrom('download_jobs')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', jobId)
      .where('status', 'in', ['starting', 'processing'])
      .executeTakeFirst(),
  );

export const deleteJob = (db: Db, tenantId: number, jobId: number) =>
  db.deleteFrom('download_jobs').where('tenant_id', '=', tenantId).where('id', '=', jobId).executeTakeFirst();

/** Jobs whose files are past their expiry at `now`, oldest first, across tenants (the cleanup job). */
export const expiredJobs = (db: Db, limit: number, now: Date) =>
  db.selectFrom('download_jobs').select(['id', 'tenant_id']).where('expires_at', '<', now).orderBy('expires_at').limit(limit).execute();

export const blobKeysOf = async (db: Db, tenantId: number, jobId: number) =>
  (
    await db
      .selectFrom('download_tasks')
      .select('blob_key')
      .where('tenant_id', '=', tenantId)
      .where('job_id', '=', jobId)
      .where('blob_key', 'is not', null)
      .execute()
  ).map((r) => r.blob_key as string);

/**
 * Jobs shown as running whose queue job has ended without them (failed, cancelled, vanished, or completed
 * without finishing the job): they would otherwise stay 'processing' forever.
 */
export const orphanedJobs = (db: Db) =>
  db
    .selectFrom('download_jobs as d')
    .leftJoin('jobs as q', 'q.id', 'd.queue_job_id')
    .select(['d.id', 'd.tenant_id', 'd.user_id', 'd.kind', 'q.status as queue_status', 'q.last_error'])
    .where('d.status', 'in', ['starting', 'processing'])
    .where('d.updated_at', '<', sql<Date>`now() - interval '1 minute'`)
    .where((eb) => eb.or([eb('q.id', 'is', null), eb('q.status', 'in', ['failed', 'cancelled', 'completed'])]))
    .execute();
