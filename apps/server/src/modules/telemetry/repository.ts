import type { TelemetryAggregation, TelemetryValue } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** Rows of one flush, column by column (one multi-row INSERT per table, whatever the batch size). */
export interface TelemetryColumns {
  tenantIds: number[];
  deviceIds: number[];
  keys: string[];
  times: string[];
  nums: (number | null)[];
  txts: (string | null)[];
}

export interface LatestRow {
  tenantId: number;
  deviceId: number;
  key: string;
  ts: number;
  value: TelemetryValue;
}

export const emptyColumns = (): TelemetryColumns => ({ tenantIds: [], deviceIds: [], keys: [], times: [], nums: [], txts: [] });

export function pushReading(cols: TelemetryColumns, tenantId: number, deviceId: number, key: string, ts: number, value: TelemetryValue) {
  cols.tenantIds.push(tenantId);
  cols.deviceIds.push(deviceId);
  cols.keys.push(key);
  cols.times.push(new Date(ts).toISOString());
  if (typeof value === 'number') {
    cols.nums.push(value);
    cols.txts.push(null);
  } else if (typeof value === 'boolean') {
    cols.nums.push(value ? 1 : 0);
    cols.txts.push(null);
  } else {
    cols.nums.push(null);
    cols.txts.push(value);
  }
}

const partitionName = (day: Date) => `telemetry_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
const dayStart = (ms: number) => {
  const d = new Date(ms);
  d.setUTCHours(0, 0, 0, 0);
  return d;
};

export function createTelemetryRepository(db: Db) {
  return {
    async insertTelemetry(trx: Db, cols: TelemetryColumns) {
      if (cols.deviceIds.length === 0) return;
      await sql`
        insert into telemetry (tenant_id, device_id, key, ts, num, txt)
        select * from unnest(${cols.tenantIds}::int[], ${cols.deviceIds}::int[], ${cols.keys}::text[], ${cols.times}::timestamptz[],
                             ${cols.nums}::float8[], ${cols.txts}::text[])`.execute(trx);
    },

    /** Latest value per key (rows already deduplicated per device and key); skips devices deleted meanwhile. */
    async upsertLatest(trx: Db, table: 'telemetry_latest' | 'device_attributes', rows: LatestRow[]) {
      if (rows.length === 0) return;
      const tenantIds = rows.map((r) => r.tenantId);
      const deviceIds = rows.map((r) => r.deviceId);
      const keys = rows.map((r) => r.key);
      const times = rows.map((r) => new Date(r.ts).toISOString());
      const values = rows.map((r) => JSON.stringify(r.value));
      if (table === 'telemetry_latest') {
        await sql`
          insert into telemetry_latest (tenant_id, device_id, key, ts, value)
          select u.t, u.d, u.k, u.ts, u.v from unnest(${tenantIds}::int[], ${deviceIds}::int[], ${keys}::text[], ${times}::timestamptz[], ${values}::jsonb[])
            as u(t, d, k, ts, v) join devices on devices.id = u.d
          on conflict (device_id, key) do update set ts = excluded.ts, value = excluded.value where telemetry_latest.ts <= excluded.ts`.execute(
          trx,
        );
      } else {
        await sql`
          insert into device_attributes (tenant_id, device_id, key, updated_at, value)
          select u.t, u.d, u.k, u.ts, u.v from unnest(${tenantIds}::int[], ${deviceIds}::int[], ${keys}::text[], ${times}::timestamptz[], ${values}::jsonb[])
            as u(t, d, k, ts, v) join devices on devices.id = u.d
          on conflict (device_id, key) do update set updated_at = excluded.updated_at, value = excluded.value`.execute(trx);
      }
    },

    async latest(tenantId: number, deviceId: number) {
      const telemetry = await db
        .selectFrom('telemetry_latest')
        .select(['key', 'ts', 'value'])
        .where('tenant_id', '=', tenantId)
        .where('device_id', '=', deviceId)
        .orderBy('key')
        .execute();
      const attributes = await db
        .selectFrom('device_attributes')
        .select(['key', 'updated_at as ts', 'value'])
        .where('tenant_id', '=', tenantId)
        .where('device_id', '=', deviceId)
        .orderBy('key')
        .execute();
      return { telemetry, attributes };
    },

    async latestOf(tenantId: number, deviceIds: number[], keys: string[] | undefined) {
      let q = db
        .selectFrom('telemetry_latest')
        .select(['device_id', 'key', 'ts', 'value'])
        .where('tenant_id', '=', tenantId)
        .where('device_id', 'in', deviceIds);
      if (keys?.length) q = q.where('key', 'in', keys);
      return q.execute();
    },

    async raw(tenantId: number, deviceId: number, key: string, start: Date, end: Date, limit: number) {
      return db
        .selectFrom('telemetry')
        .select(['ts', 'num', 'txt'])
        .where('tenant_id', '=', tenantId)
        .where('device_id', '=', deviceId)
        .where('key', '=', key)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .orderBy('ts')
        .limit(limit)
        .execute();
    },

    async aggregated(
      tenantId: number,
      deviceId: number,
      key: string,
      start: Date,
      end: Date,
      agg: Exclude<TelemetryAggregation, 'none'>,
      intervalSeconds: number,
      limit: number,
    ) {
      const fn = { avg: sql`avg(num)`, min: sql`min(num)`, max: sql`max(num)` }[agg];
      const { rows } = await sql<{ bucket: number; value: number | null }>`
        select (floor(extract(epoch from ts) / ${intervalSeconds}) * ${intervalSeconds})::float8 as bucket, ${fn}::float8 as value
        from telemetry
        where tenant_id = ${tenantId} and device_id = ${deviceId} and key = ${key} and ts >= ${start.toISOString()}::timestamptz and ts < ${end.toISOString()}::timestamptz
        group by 1 order by 1 limit ${limit}`.execute(db);
      return rows;
    },

    /** Daily partitions from the retention horizon to a few days ahead; drops those wholly past retention. */
    async maintainPartitions(retentionDays: number, now = Date.now()) {
      const created: string[] = [];
      for (let d = -retentionDays; d <= 3; d++) {
        const from = dayStart(now + d * 86_400_000);
        const to = new Date(from.getTime() + 86_400_000);
        const name = partitionName(from);
        const exists = await sql<{ n: number }>`select count(*)::int as n from pg_class where relname = ${name}`.execute(db);
        if (exists.rows[0]?.n) continue;
        try {
          await sql
            .raw(`create table ${name} partition of telemetry for values from ('${from.toISOString()}') to ('${to.toISOString()}')`)
            .execute(db);
          created.push(name);
        } catch {
          // rows for that day already sit in the default partition; they stay there until retention drops them
        }
      }
      const horizon = dayStart(now - retentionDays * 86_400_000);
      const { rows } = await sql<{ name: string }>`
        select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
        where p.relname = 'telemetry' and c.relname like 'telemetry_p%'`.execute(db);
      const dropped: string[] = [];
      for (const { name } of rows) {
        if (name < partitionName(horizon)) {
          await sql.raw(`drop table ${name}`).execute(db);
          dropped.push(name);
        }
      }
      await sql`delete from telemetry_default where ts < ${horizon.toISOString()}::timestamptz`.execute(db);
      return { created, dropped };
    },
  };
}
export type TelemetryRepository = ReturnType<typeof createTelemetryRepository>;
