import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { allOf, matching, type TimeRange, type ValueFilter, withinRange } from '../../platform/sql-lists.ts';

/** Reads of alarms for dashboard widgets: the newest first, at most `limit`, of the devices given as a subquery. */
export function createAlarmDashboardReads(db: Db) {
  return {
    async list(
      tenantId: number,
      devices: RawBuilder<unknown>,
      f: { severity: ValueFilter; state: string | null; range: TimeRange | null; limit: number },
    ) {
      const where = allOf([
        sql<boolean>`al.tenant_id = ${tenantId}`,
        sql<boolean>`al.device_id in ${devices}`,
        ...matching('al.severity', f.severity),
        ...(f.state ? [sql<boolean>`al.state = ${f.state}`] : []),
        withinRange('al.raised_at', f.range),
      ]);
      const { rows } = await sql<{ id: number; device_id: number; severity: string; state: string; message: string; raised_at: Date }>`
        select al.id, al.device_id, al.severity, al.state, al.message, al.raised_at from alarms al
        where ${where} order by al.raised_at desc, al.id desc limit ${f.limit}`.execute(db);
      const { rows: count } = await sql<{ n: number }>`select count(*)::int as n from alarms al where ${where}`.execute(db);
      return { rows, totalCount: count[0]?.n ?? 0 };
    },
  };
}
export type AlarmDashboardReads = ReturnType<typeof createAlarmDashboardReads>;
