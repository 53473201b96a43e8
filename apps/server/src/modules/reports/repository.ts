import type { Insertable } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { ReportSchedulesTable } from './tables.ts';

/** The only SQL on report_schedules. */

const columns = [
  'id',
  'tenant_id',
  'user_id',
  'kind',
  'name',
  'frequency',
  'time_of_day',
  'day_of_week',
  'day_of_month',
  'format',
  'params',
  'next_run_at',
  'last_run_at',
  'last_job_id',
  'created_at',
] as const;

export const listOwn = (db: Db, tenantId: number, userId: number, kind?: string) => {
  let q = db.selectFrom('report_schedules').select(columns).where('tenant_id', '=', tenantId).where('user_id', '=', userId);
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('id').limit(200).execute();
};
export type ScheduleRow = Awaited<ReturnType<typeof listOwn>>[number];

export const countOwn = async (db: Db, tenantId: number, userId: number) =>
  Number(
    (
      await db
        .selectFrom('report_schedules')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const findOwn = (db: Db, tenantId: number, userId: number, id: number) =>
  db
    .selectFrom('report_schedules')
    .select(columns)
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();

export const insert = (db: Db, row: Insertable<ReportSchedulesTable>) =>
  db.insertInto('report_schedules').values(row).returning(columns).executeTakeFirstOrThrow();

export const remove = (db: Db, tenantId: number, userId: number, id: number) =>
  db.deleteFrom('report_schedules').where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();

/** Schedules of every tenant whose time has come by `now`, oldest first. */
export const due = (db: Db, now: Date, limit: number) =>
  db
    .selectFrom('report_schedules')
    .select(columns)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .orderBy('id')
    .limit(limit)
    .execute();

/** Moves a schedule on from the run it was due for; false when another worker took that run. */
export async function claim(db: Db, row: ScheduleRow, next: Date, now: Date) {
  const r = await db
    .updateTable('report_schedules')
    .set({ next_run_at: next, last_run_at: now })
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('next_run_at', '=', row.next_run_at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export const setLastJob = (db: Db, tenantId: number, id: number, jobId: number) =>
  db.updateTable('report_schedules').set({ last_job_id: jobId }).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
