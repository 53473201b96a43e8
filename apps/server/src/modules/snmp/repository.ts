import type { TrapFilterInput, TrapMappingInput } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { deviceIdsNamed } from '../devices/scope.ts';
import { contains } from '../sites/scope.ts';

/** Destination columns as stored; the sealed secrets are opened only by the forwarder. */
export interface DestinationWrite {
  name: string;
  host: string;
  port: number;
  version: string;
  mode: string;
  community: string | null;
  user_name: string;
  security_level: string;
  auth_protocol: string;
  auth_key: string | null;
  priv_protocol: string;
  priv_key: string | null;
  enabled: boolean;
}

export interface UnmatchedWrite {
  tenantId: number | null;
  source: string;
  version: string;
  trapOid: string;
  reason: string;
  deviceId: number | null;
  count: number;
  lastSeen: Date;
  varbinds: unknown;
}

export interface StatsWrite {
  tenantId: number;
  received: number;
  matched: number;
  unmatched: number;
  deduped: number;
  rateLimited: number;
  alarms: number;
  forwarded: number;
  refused: number;
}

/** A tenant's v3 user as stored (keys sealed). */
export interface TrapUserWrite {
  name: string;
  security_level: string;
  auth_protocol: string;
  auth_key: string | null;
  priv_protocol: string;
  priv_key: string | null;
}

const filterValues = (f: TrapFilterInput) => ({
  name: f.name,
  oid_prefix: f.oidPrefix,
  varbind_oid: f.varbindOid,
  varbind_value: f.varbindOid === null ? null : f.varbindValue,
  device_id: f.deviceId,
  asset_id: f.assetId,
  min_severity: f.minSeverity,
  destination_ids: sql<number[]>`${[...new Set(f.destinationIds)]}::int[]`,
  enabled: f.enabled,
});
const mappingValues = (m: TrapMappingInput) => ({
  name: m.name,
  trap_oid: m.trapOid,
  action: m.action,
  alarm_key: m.alarmKey,
  instance_oid: m.instanceOid,
  severity: m.severity,
  create_ticket: m.createTicket,
  device_type: m.deviceType,
  enabled: m.enabled,
});

export function createSnmpRepository(db: Db) {
  return {
    // destinations
    countDestinations: async (tenantId: number) =>
      Number(
        (
          await db
            .selectFrom('trap_destinations')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('tenant_id', '=', tenantId)
            .executeTakeFirst()
        )?.n ?? 0,
      ),
    listDestinations: (tenantId: number, limit: number, offset: number) =>
      db.selectFrom('trap_destinations').selectAll().where('tenant_id', '=', tenantId).orderBy('id').limit(limit).offset(offset).execute(),
    destination: (tenantId: number, id: number) =>
      db.selectFrom('trap_destinations').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst(),
    destinationsByIds: (tenantId: number, ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db.selectFrom('trap_destinations').select(['id']).where('tenant_id', '=', tenantId).where('id', 'in', ids).execute(),
    enabledDestinations: (tenantId: number) =>
      db.selectFrom('trap_destinations').selectAll().where('tenant_id', '=', tenantId).where('enabled', '=', true).execute(),
    insertDestination: (tenantId: number, d: DestinationWrite) =>
      db
        .insertInto('trap_destinations')
        .values({ tenant_id: tenantId, ...d })
        .returningAll()
        .executeTakeFirstOrThrow(),
    updateDestination: (tenantId: number, id: number, d: DestinationWrite) =>
      db
        .updateTable('trap_destinations')
        .set({ ...d, updated_at: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    deleteDestination: async (tenantId: number, id: number) => {
      const res = await db.deleteFrom('trap_destinations').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) return false;
      await sql`update trap_filters set destination_ids = array_remove(destination_ids, ${id}) where tenant_id = ${tenantId}`.execute(db);
      return true;
    },
    /** Adds counts to several destinations in one statement. */
    async addDestinationCounts(rows: Array<{ id: number; sent: number; failed: number; dropped: number }>) {
      if (rows.length === 0) return;
      await sql`
        update trap_destinations d set sent = d.sent + c.s, failed = d.failed + c.f, dropped = d.dropped + c.x
        from unnest(${rows.map((r) => r.id)}::int[], ${rows.map((r) => r.sent)}::bigint[], ${rows.map((r) => r.failed)}::bigint[],
                    ${rows.map((r) => r.dropped)}::bigint[]) as c(id, s, f, x)
        where d.id = c.id`.execute(db);
    },
    async insertFailures(rows: Array<{ tenantId: number; destinationId: number; at: Date; trapOid: string; error: string }>) {
      if (rows.length === 0) return;
      await sql`
        insert into trap_forward_failures (tenant_id, destination_id, at, trap_oid, error)
        select f.t, f.d, f.a, f.o, f.e
        from unnest(${rows.map((r) => r.tenantId)}::int[], ${rows.map((r) => r.destinationId)}::int[],
                    ${rows.map((r) => r.at.toISOString())}::timestamptz[], ${rows.map((r) => r.trapOid.slice(0, 256))}::text[],
                    ${rows.map((r) => r.error.slice(0, 200))}::text[]) as f(t, d, a, o, e)
        join trap_destinations on trap_destinations.id = f.d`.execute(db);
      // keep the last 50 per destination
      await sql`
        delete from trap_forward_failures f using (
          select id from (
            select id, row_number() over (partition by destination_id order by at desc, id desc) as n
            from trap_forward_failures where destination_id = any(${[...new Set(rows.map((r) => r.destinationId))]}::int[])
          ) ranked where n > 50
        ) old where f.id = old.id`.execute(db);
    },
    lastFailures: (tenantId: number, destinationIds: number[], perDestination: number) =>
      destinationIds.length === 0
        ? Promise.resolve([] as Array<{ destination_id: number; at: Date; trap_oid: string; error: string }>)
        : sql<{ destination_id: number; at: Date; trap_oid: string; error: string }>`
            select destination_id, at, trap_oid, error from (
              select destination_id, at, trap_oid, error, row_number() over (partition by destination_id order by at desc, id desc) as n
              from trap_forward_failures where tenant_id = ${tenantId} and destination_id = any(${destinationIds}::int[])
            ) ranked where n <= ${perDestination} order by at desc`
            .execute(db)
            .then((r) => r.rows),

    // filters
    countFilters: async (tenantId: number) =>
      Number(
        (
          await db
            .selectFrom('trap_filters')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('tenant_id', '=', tenantId)
            .executeTakeFirst()
        )?.n ?? 0,
      ),
    listFilters: (tenantId: number, limit: number, offset: number) =>
      db.selectFrom('trap_filters').selectAll().where('tenant_id', '=', tenantId).orderBy('id').limit(limit).offset(offset).execute(),
    filter: (tenantId: number, id: number) =>
      db.selectFrom('trap_filters').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst(),
    enabledFilters: (tenantId: number) =>
      db.selectFrom('trap_filters').selectAll().where('tenant_id', '=', tenantId).where('enabled', '=', true).orderBy('id').execute(),
    insertFilter: (tenantId: number, f: TrapFilterInput) =>
      db
        .insertInto('trap_filters')
        .values({ tenant_id: tenantId, ...filterValues(f) })
        .returningAll()
        .executeTakeFirstOrThrow(),
    updateFilter: (tenantId: number, id: number, f: TrapFilterInput) =>
      db
        .updateTable('trap_filters')
        .set({ ...filterValues(f), updated_at: new Date() })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    deleteFilter: async (tenantId: number, id: number) =>
      Number(
        (await db.deleteFrom('trap_filters').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()).numDeletedRows,
      ) > 0,
    async addFilterMatches(rows: Array<{ id: number; n: number }>) {
      if (rows.length === 0) return;
      await sql`
        update trap_filters f set matched = f.matched + c.n
        from unnest(${rows.map((r) => r.id)}::int[], ${rows.map((r) => r.n)}::bigint[]) as c(id, n) where f.id = c.id`.execute(db);
    },

    // mappings
    listMappings: (tenantId: number) =>
      db.selectFrom('trap_mappings').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute(),
    enabledMappings: (tenantId: number) =>
      db.selectFrom('trap_mappings').selectAll().where('tenant_id', '=', tenantId).where('enabled', '=', true).orderBy('id').execute(),
    insertMapping: (tenantId: number, m: TrapMappingInput) =>
      db
        .insertInto('trap_mappings')
        .values({ tenant_id: tenantId, ...mappingValues(m) })
        .returningAll()
        .executeTakeFirstOrThrow(),
    updateMapping: (tenantId: number, id: number, m: TrapMappingInput) =>
      db
        .updateTable('trap_mappings')
        .set(mappingValues(m))
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    deleteMapping: async (tenantId: number, id: number) =>
      Number(
        (await db.deleteFrom('trap_mappings').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()).numDeletedRows,
      ) > 0,

    // unmatched traps: one row per tenant, source and trap OID, counted
    async upsertUnmatched(rows: UnmatchedWrite[]) {
      if (rows.length === 0) return;
      await sql`
        insert into trap_unmatched as u (tenant_id, source, version, trap_oid, reason, device_id, count, first_seen, last_seen, varbinds)
        select nullif(r.t, 0), r.s, r.v, r.o, r.r, nullif(r.d, 0), r.n, r.at, r.at, r.vb
        from unnest(${rows.map((r) => r.tenantId ?? 0)}::int[], ${rows.map((r) => r.source)}::text[], ${rows.map((r) => r.version)}::text[],
                    ${rows.map((r) => r.trapOid.slice(0, 256))}::text[], ${rows.map((r) => r.reason)}::text[],
                    ${rows.map((r) => r.deviceId ?? 0)}::int[], ${rows.map((r) => r.count)}::bigint[],
                    ${rows.map((r) => r.lastSeen.toISOString())}::timestamptz[], ${rows.map((r) => JSON.stringify(r.varbinds))}::jsonb[])
             as r(t, s, v, o, r, d, n, at, vb)
        on conflict (coalesce(tenant_id, 0), source, trap_oid) do update
          set count = u.count + excluded.count, last_seen = greatest(u.last_seen, excluded.last_seen), varbinds = excluded.varbinds,
              version = excluded.version, reason = excluded.reason, device_id = excluded.device_id`.execute(db);
    },
    async listUnmatched(tenantId: number | 'global', filter: { reason?: string; search?: string }, limit: number, offset: number) {
      let q = db.selectFrom('trap_unmatched');
      q = tenantId === 'global' ? q.where('tenant_id', 'is', null) : q.where('tenant_id', '=', tenantId);
      if (filter.reason) q = q.where('reason', '=', filter.reason);
      if (filter.search) {
        const like = contains(filter.search);
        const ofDevices = tenantId === 'global' ? [] : [sql<boolean>`device_id in ${deviceIdsNamed(tenantId, like)}`];
        q = q.where((eb) => eb.or([eb('source', 'ilike', like), eb('trap_oid', 'ilike', like), ...ofDevices]));
      }
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const rows = await q.selectAll().orderBy('last_seen', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
      return { rows, total: Number(total?.n ?? 0) };
    },
    pruneUnmatched: (before: Date) => db.deleteFrom('trap_unmatched').where('last_seen', '<', before).execute(),

    // counters of the receiver, per tenant (0: traps of no known device)
    async addStats(rows: StatsWrite[]) {
      if (rows.length === 0) return;
      const col = (f: (r: StatsWrite) => number) => rows.map(f);
      await sql`
        insert into trap_stats as s (tenant_id, received, matched, unmatched, deduped, rate_limited, alarms, forwarded, refused)
        select * from unnest(${col((r) => r.tenantId)}::int[], ${col((r) => r.received)}::bigint[], ${col((r) => r.matched)}::bigint[],
                             ${col((r) => r.unmatched)}::bigint[], ${col((r) => r.deduped)}::bigint[], ${col((r) => r.rateLimited)}::bigint[],
                             ${col((r) => r.alarms)}::bigint[], ${col((r) => r.forwarded)}::bigint[], ${col((r) => r.refused)}::bigint[])
        on conflict (tenant_id) do update set
          received = s.received + excluded.received, matched = s.matched + excluded.matched, unmatched = s.unmatched + excluded.unmatched,
          deduped = s.deduped + excluded.deduped, rate_limited = s.rate_limited + excluded.rate_limited, alarms = s.alarms + excluded.alarms,
          forwarded = s.forwarded + excluded.forwarded, refused = s.refused + excluded.refused`.execute(db);
    },
    stats: (tenantId: number) => db.selectFrom('trap_stats').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst(),

    // what attributes a trap to a tenant: its community, its v3 users, the relays it trusts
    receiving: (tenantId: number) =>
      db.selectFrom('tenants').select(['trap_community', 'trap_relays']).where('id', '=', tenantId).executeTakeFirstOrThrow(),
    allReceiving: () => db.selectFrom('tenants').select(['id', 'trap_community', 'trap_relays']).execute(),
    trapUsers: (tenantId: number) => db.selectFrom('trap_users').selectAll().where('tenant_id', '=', tenantId).orderBy('name').execute(),
    allTrapUsers: () => db.selectFrom('trap_users').selectAll().execute(),
    userNameTaken: async (tenantId: number, names: string[]) =>
      names.length === 0
        ? []
        : (await db.selectFrom('trap_users').select('name').where('tenant_id', '<>', tenantId).where('name', 'in', names).execute()).map(
            (r) => r.name,
          ),
    /** The relays and v3 users of a tenant, replaced together with the activity entry `record` writes. */
    async saveReceiving(tenantId: number, relays: string[], users: TrapUserWrite[], record: (tx: Db) => Promise<void>) {
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('tenants').set({ trap_relays: relays }).where('id', '=', tenantId).execute();
        await tx.deleteFrom('trap_users').where('tenant_id', '=', tenantId).execute();
        if (users.length > 0)
          await tx
            .insertInto('trap_users')
            .values(users.map((u) => ({ tenant_id: tenantId, ...u })))
            .execute();
        await record(tx);
      });
    },
    /** A new community for the tenant, with the activity entry `record` writes. */
    async renewCommunity(tenantId: number, community: string, record: (tx: Db) => Promise<void>) {
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('tenants').set({ trap_community: community }).where('id', '=', tenantId).execute();
        await record(tx);
      });
    },
  };
}
export type SnmpRepository = ReturnType<typeof createSnmpRepository>;
