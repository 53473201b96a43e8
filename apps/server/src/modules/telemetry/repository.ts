import type { TelemetryAggregation, TelemetryValue } from '@sitewatch/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { joinExistingDevices, recentDeviceStateKeys } from '../devices/scope.ts';

/**
 * Rows of one flush, column by column, as PostgreSQL array literals in the making (one multi-row INSERT per table,
 * whatever the batch size). Building the literals here is several times cheaper than handing the driver arrays of
 * values, which it escapes one element at a time.
 */
export interface TelemetryColumns {
  tenantIds: number[];
  deviceIds: number[];
  /** Array elements: quoted keys. */
  keys: string[];
  /** Epoch milliseconds. */
  times: number[];
  /** Numbers (booleans as 1/0), or NULL. */
  nums: Array<number | 'NULL'>;
  /** Array elements: quoted text, or NULL. */
  txts: string[];
}

export interface LatestRow {
  tenantId: number;
  deviceId: number;
  key: string;
  ts: number;
  value: TelemetryValue;
}

export const emptyColumns = (): TelemetryColumns => ({ tenantIds: [], deviceIds: [], keys: [], times: [], nums: [], txts: [] });

/** A text as an element of a PostgreSQL array literal. */
export const arrayElement = (text: string) => `"${text.replace(/["\\]/g, '\\$&')}"`;
const literal = (elements: ReadonlyArray<string | number>) => `{${elements.join(',')}}`;

/** Keys repeat in every message: their quoted form is kept. */
const quotedKeys = new Map<string, string>();
function quotedKey(key: string) {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    if (quotedKeys.size >= 10_000) quotedKeys.clear();
    q = arrayElement(key);
    quotedKeys.set(key, q);
  }
  return q;
}

export function pushReading(cols: TelemetryColumns, tenantId: number, deviceId: number, key: string, ts: number, value: TelemetryValue) {
  cols.tenantIds.push(tenantId);
  cols.deviceIds.push(deviceId);
  cols.keys.push(quotedKey(key));
  cols.times.push(ts);
  if (typeof value === 'number') {
    cols.nums.push(value);
    cols.txts.push('NULL');
  } else if (typeof value === 'boolean') {
    cols.nums.push(value ? 1 : 0);
    cols.txts.push('NULL');
  } else {
    cols.nums.push('NULL');
    cols.txts.push(arrayElement(value));
  }
}

const partitionName = (day: Date) => `telemetry_p${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
const dayStart = (ms: number) => {
  const d = new Date(ms);
  d.setUTCHours(0, 0, 0, 0);
  return d;
};

function insertHistory(cols: TelemetryColumns) {
  return sql`
    insert into telemetry (tenant_id, device_id, key, ts, num, txt)
    select t, d, k, to_timestamp(ms / 1000), n, x
    from unnest(${literal(cols.tenantIds)}::int[], ${literal(cols.deviceIds)}::int[], ${literal(cols.keys)}::text[],
                ${literal(cols.times)}::float8[], ${literal(cols.nums)}::float8[], ${literal(cols.txts)}::text[]) as u(t, d, k, ms, n, x)`;
}

/** Latest value per key (rows deduplicated per device and key); devices deleted meanwhile are skipped. */
function upsertValues(table: 'telemetry_latest' | 'device_attributes', rows: LatestRow[]) {
  const tenantIds = literal(rows.map((r) => r.tenantId));
  const deviceIds = literal(rows.map((r) => r.deviceId));
  const keys = literal(rows.map((r) => quotedKey(r.key)));
  const times = literal(rows.map((r) => r.ts));
  const values = literal(rows.map((r) => arrayElement(JSON.stringify(r.value))));
  const source = sql`
    select u.t, u.d, u.k, to_timestamp(u.ms / 1000), u.v
    from unnest(${tenantIds}::int[], ${deviceIds}::int[], ${keys}::text[], ${times}::float8[], ${values}::jsonb[]) as u(t, d, k, ms, v)
      ${joinExistingDevices('u.d')}`;
  return table === 'telemetry_latest'
    ? sql`
        insert into telemetry_latest (tenant_id, device_id, key, ts, value) ${source}
        on conflict (device_id, key) do update set ts = excluded.ts, value = excluded.value where telemetry_latest.ts <= excluded.ts`
    : sql`
        insert into device_attributes (tenant_id, device_id, key, updated_at, value) ${source}
        on conflict (device_id, key) do update set updated_at = excluded.updated_at, value = excluded.value`;
}

export function createTelemetryRepository(db: Db) {
  return {
    /** The tenant's own rate limits of device input (null: none set). */
    async tenantRateLimits(tenantId: number): Promise<Partial<Record<string, string>> | null> {
      const row = await db.selectFrom('tenants').select('device_rate_limits').where('id', '=', tenantId).executeTakeFirst();
      const own = row?.device_rate_limits;
      if (!own || typeof own !== 'object') return null;
      return Object.fromEntries(Object.entries(own).filter((e): e is [string, string] => typeof e[1] === 'string'));
    },
    async saveTenantRateLimits(tenantId: number, own: Record<string, string> | null) {
      await db
        .updateTable('tenants')
        .set({ device_rate_limits: own && Object.keys(own).length > 0 ? JSON.stringify(own) : null })
        .where('id', '=', tenantId)
        .execute();
    },
    /**
     * Writes one ingest batch in a single statement (one round trip, atomic without a transaction block): the
     * history rows, the latest values and attributes when given, and the devices' activity (`activity`, from the
     * devices module). Returns the rows of `activity`.
     */
    async writeBatch<A>(
      db: Db,
      batch: { cols: TelemetryColumns; latest: LatestRow[]; attributes: LatestRow[]; activity: RawBuilder<A> | null },
    ): Promise<A[]> {
      const parts: RawBuilder<unknown>[] = [];
      if (batch.cols.deviceIds.length > 0) parts.push(sql`history as (${insertHistory(batch.cols)})`);
      if (batch.latest.length > 0) parts.push(sql`latest as (${upsertValues('telemetry_latest', batch.latest)})`);
      if (batch.attributes.length > 0) parts.push(sql`attributes as (${upsertValues('device_attributes', batch.attributes)})`);
      if (batch.activity) parts.push(sql`activity as (${batch.activity})`);
      if (parts.length === 0) return [];
      const result = batch.activity ? sql<A>`select * from activity` : sql<A>`select null where false`;
      const { rows } = await sql<A>`with ${sql.join(parts)} ${result}`.execute(db);
      return rows;
    },

    /**
     * After a crash the latest values (written apart from the history, coalesced) may lag behind the stored history.
     * The keys of recent activity — latest values no older than `windowMs` before the newest one, and the stored state
     * of devices active within `windowMs` before the most recently active one — get the newest history row after
     * their latest value as latest value (one index probe per key: (device_id, key, ts)); a boolean stays a boolean.
     * Returns the values it moved on.
     */
    async rebuildLatest(db: Db, windowMs: number) {
      const { rows } = await sql<{ tenant_id: number; device_id: number; key: string; ms: number; value: TelemetryValue }>`
        with recent as (
          select distinct on (c.device_id, c.key) c.tenant_id, c.device_id, c.key, c.ts, c.value from (
            select l.tenant_id, l.device_id, l.key, l.ts, l.value from telemetry_latest l
            where l.ts >= (select max(ts) from telemetry_latest) - make_interval(secs => ${windowMs / 1000})
            union all
            select s.tenant_id, s.device_id, s.key, '-infinity'::timestamptz, s.value from (${recentDeviceStateKeys(windowMs)}) s
          ) c order by c.device_id, c.key, c.ts desc
        ), newer as (
          select r.tenant_id, r.device_id, r.key, h.ts,
            case when h.num is null then to_jsonb(h.txt)
                 when jsonb_typeof(r.value) = 'boolean' then to_jsonb(h.num <> 0)
                 else to_jsonb(h.num) end as value
          from recent r cross join lateral (
            select t.ts, t.num, t.txt from telemetry t
            where t.device_id = r.device_id and t.key = r.key and t.ts > r.ts
            order by t.ts desc limit 1) h
        )
        insert into telemetry_latest as l (tenant_id, device_id, key, ts, value)
        select tenant_id, device_id, key, ts, value from newer
        on conflict (device_id, key) do update set ts = excluded.ts, value = excluded.value where l.ts < excluded.ts
        returning l.tenant_id, l.device_id, l.key, extract(epoch from l.ts)::float8 * 1000 as ms, l.value`.execute(db);
      return rows;
    },

    /** Latest value per key (rows already deduplicated per device and key); skips devices deleted meanwhile. */
    async upsertLatest(db: Db, table: 'telemetry_latest' | 'device_attributes', rows: LatestRow[]) {
      if (rows.length > 0) await upsertValues(table, rows).execute(db);
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

    /** A device's client attributes (all, or these keys). */
    async clientAttributes(tenantId: number, deviceId: number, keys?: string[]) {
      if (keys?.length === 0) return [];
      let q = db
        .selectFrom('device_attributes')
        .select(['key', 'value'])
        .where('tenant_id', '=', tenantId)
        .where('device_id', '=', deviceId);
      if (keys) q = q.where('key', 'in', keys);
      return q.orderBy('key').execute();
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
