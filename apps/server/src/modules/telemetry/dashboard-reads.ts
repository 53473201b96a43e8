import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { TimeRange } from '../../platform/sql-lists.ts';

/** Reads of telemetry for dashboard widgets: at most `limit` points (the latest ones), oldest first. */
export function createTelemetryDashboardReads(db: Db) {
  return {
    async series(
      tenantId: number,
      deviceId: number,
      key: string,
      range: TimeRange,
      agg: 'none' | 'avg' | 'min' | 'max',
      interval: number,
      limit: number,
    ) {
      if (agg === 'none') {
        const rows = await db
          .selectFrom('telemetry')
          .select(['ts', 'num', 'txt'])
          .where('tenant_id', '=', tenantId)
          .where('device_id', '=', deviceId)
          .where('key', '=', key)
          .where('ts', '>=', range.start)
          .where('ts', '<', range.end)
          .orderBy('ts', 'desc')
          .limit(limit + 1)
          .execute();
        return {
          points: rows
            .slice(0, limit)
            .reverse()
            .map((r) => ({ ts: new Date(r.ts).getTime(), value: r.num ?? r.txt })),
          truncated: rows.length > limit,
        };
      }
      const fn = { avg: sql`avg(num)`, min: sql`min(num)`, max: sql`max(num)` }[agg];
      const { rows } = await sql<{ bucket: number; value: number | null }>`
        select (floor(extract(epoch from ts) / ${interval}) * ${interval})::float8 as bucket, ${fn}::float8 as value
        from telemetry
        where tenant_id = ${tenantId} and device_id = ${deviceId} and key = ${key}
          and ts >= ${range.start.toISOString()}::timestamptz and ts < ${range.end.toISOString()}::timestamptz
        group by 1 order by 1 desc limit ${limit + 1}`.execute(db);
      return {
        points: rows
          .slice(0, limit)
          .reverse()
          .map((r) => ({ ts: Number(r.bucket) * 1000, value: r.value })),
        truncated: rows.length > limit,
      };
    },
    async latest(tenantId: number, deviceId: number, key: string) {
      const row = await db
        .selectFrom('telemetry_latest')
        .select(['ts', 'value'])
        .where('tenant_id', '=', tenantId)
        .where('device_id', '=', deviceId)
        .where('key', '=', key)
        .executeTakeFirst();
      return row ? { ts: new Date(row.ts).getTime(), value: row.value } : null;
    },
  };
}
export type TelemetryDashboardReads = ReturnType<typeof createTelemetryDashboardReads>;
