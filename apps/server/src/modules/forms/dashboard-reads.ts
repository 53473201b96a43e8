import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { TimeRange } from '../../platform/sql-lists.ts';

/** Reads of form responses for dashboard widgets: counts per day of one template. */
export function createFormDashboardReads(db: Db) {
  return {
    async responsesPerDay(tenantId: number, formId: number, range: TimeRange) {
      const form = await db
        .selectFrom('form_templates')
        .select(['id', 'name', 'label'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', formId)
        .executeTakeFirst();
      if (!form) return null;
      const { rows } = await sql<{ day: string; n: number }>`
        select to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
        from form_responses r
        where r.tenant_id = ${tenantId} and r.template_id = ${formId}
          and r.created_at >= ${range.start.toISOString()}::timestamptz and r.created_at < ${range.end.toISOString()}::timestamptz
        group by 1 order by 1 limit 400`.execute(db);
      return { form, rows };
    },
  };
}
export type FormDashboardReads = ReturnType<typeof createFormDashboardReads>;
