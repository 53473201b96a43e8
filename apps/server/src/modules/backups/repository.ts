import type { BackupRun } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import type { BackupRunsTable } from './tables.ts';

type Reason = BackupRunsTable['reason'];

export const startRun = async (db: Db, values: { reason: Reason; withRecordings: boolean; startedBy: number | null }) =>
  (await db
    .insertInto('backup_runs')
    .values({ reason: values.reason, with_recordings: values.withRecordings, started_by: values.startedBy })
    .returning(['id', 'started_at'])
    .executeTakeFirstOrThrow()) as { id: number; started_at: Date };

export async function finishRun(
  db: Db,
  id: number,
  values: { status: 'succeeded' | 'failed'; name?: string; bytes?: number; durationMs: number; verified?: boolean; error?: string },
) {
  await db
    .updateTable('backup_runs')
    .set({
      status: values.status,
      finished_at: new Date(),
      name: values.name ?? null,
      bytes: values.bytes ?? null,
      duration_ms: values.durationMs,
      verified: values.verified ?? false,
      error: values.error?.slice(0, 1000) ?? null,
    })
    .where('id', '=', id)
    .execute();
}

/** The latest runs, newest first. */
export async function listRuns(db: Db, limit: number): Promise<BackupRun[]> {
  const rows = await db.selectFrom('backup_runs').selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    reason: r.reason,
    status: r.status,
    startedAt: new Date(r.started_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
    name: r.name,
    bytes: r.bytes === null ? null : Number(r.bytes),
    durationMs: r.duration_ms,
    verified: r.verified,
    withRecordings: r.with_recordings,
    removed: r.removed,
    error: r.error,
  }));
}

/** When the last scheduled backup that succeeded started. */
export async function lastScheduledSuccess(db: Db): Promise<Date | null> {
  const row = await db
    .selectFrom('backup_runs')
    .select('started_at')
    .where('reason', '=', 'scheduled')
    .where('status', '=', 'succeeded')
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.started_at) : null;
}

export async function markRemoved(db: Db, names: string[]) {
  if (names.length === 0) return;
  await db.updateTable('backup_runs').set({ removed: true }).where('name', 'in', names).execute();
}

/** A run left `running` by a process that stopped mid-backup failed. */
export async function failAbandoned(db: Db, olderThan: Date) {
  await db
    .updateTable('backup_runs')
    .set({ status: 'failed', finished_at: new Date(), error: 'The process making the backup stopped before it finished.' })
    .where('status', '=', 'running')
    .where('started_at', '<', olderThan)
    .execute();
}

/** A backup job waiting or running in the queue (manual or scheduled). */
export async function backupJobPending(db: Db, queues: string[]): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('queue', 'in', queues)
    .where('status', 'in', ['queued', 'running'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
