import { COMMAND_STATES, type CommandState } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { commandableDevices } from '../devices/scope.ts';
import type { Viewer } from '../sites/scope.ts';
import { assetVisible, contains, siteIdsNamed } from '../sites/scope.ts';

export interface NewCommand {
  tenantId: number;
  deviceId: number;
  deviceLabel: string;
  assetId: number | null;
  bulkId: number | null;
  method: string;
  params: unknown;
  oneway: boolean;
  timeoutMs: number;
  createdBy: number | null;
  createdAt: Date;
  expiresAt: Date;
}

const COLUMNS = [
  'id',
  'tenant_id',
  'device_id',
  'device_label',
  'asset_id',
  'bulk_id',
  'method',
  'params',
  'oneway',
  'timeout_ms',
  'state',
  'response',
  'error',
  'created_by',
  'created_at',
  'expires_at',
  'sent_at',
  'delivered_at',
  'completed_at',
] as const;

export type CommandRow = Awaited<ReturnType<typeof commandById>> & object;

export async function targets(db: Db, viewer: Viewer, filter: { ids?: readonly number[]; assetId?: number; type?: string }, limit: number) {
  const { rows } = await commandableDevices(viewer, filter, limit).execute(db);
  return rows;
}

export async function insertBulk(
  db: Db,
  b: Omit<NewCommand, 'deviceId' | 'deviceLabel' | 'assetId' | 'bulkId'> & { target: unknown; total: number },
) {
  const row = await db
    .insertInto('device_command_bulks')
    .values({
      tenant_id: b.tenantId,
      method: b.method,
      params: JSON.stringify(b.params ?? null),
      oneway: b.oneway,
      timeout_ms: b.timeoutMs,
      target: JSON.stringify(b.target),
      total: b.total,
      created_by: b.createdBy,
      created_at: b.createdAt,
      expires_at: b.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertCommands(db: Db, commands: NewCommand[]) {
  if (commands.length === 0) return [];
  return db
    .insertInto('device_commands')
    .values(
      commands.map((c) => ({
        tenant_id: c.tenantId,
        device_id: c.deviceId,
        device_label: c.deviceLabel,
        asset_id: c.assetId,
        bulk_id: c.bulkId,
        method: c.method,
        params: JSON.stringify(c.params ?? null),
        oneway: c.oneway,
        timeout_ms: c.timeoutMs,
        created_by: c.createdBy,
        created_at: c.createdAt,
        expires_at: c.expiresAt,
      })),
    )
    .returning(COLUMNS)
    .execute();
}

export function commandById(db: Db, tenantId: number, id: number) {
  return db.selectFrom('device_commands').select(COLUMNS).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** The command's state changes, oldest first. */
export function historyOf(db: Db, tenantId: number, commandId: number) {
  return db
    .selectFrom('device_command_history')
    .select(['state', 'transport', 'at'])
    .where('tenant_id', '=', tenantId)
    .where('command_id', '=', commandId)
    .orderBy('id')
    .execute();
}

export async function listCommands(
  db: Db,
  viewer: Viewer,
  q: { deviceId?: number; bulkId?: number; state?: CommandState; search?: string; page: number; limit: number },
) {
  let query = db.selectFrom('device_commands as c').where('c.tenant_id', '=', viewer.tenantId).where(assetVisible(viewer, 'c.asset_id'));
  if (q.deviceId !== undefined) query = query.where('c.device_id', '=', q.deviceId);
  if (q.bulkId !== undefined) query = query.where('c.bulk_id', '=', q.bulkId);
  if (q.state !== undefined) query = query.where('c.state', '=', q.state);
  if (q.search) {
    // labels repeat at every site: a command is found by its device's site too
    const like = contains(q.search);
    query = query.where((eb) =>
      eb.or([
        eb('c.device_label', 'ilike', like),
        eb('c.method', 'ilike', like),
        sql<boolean>`c.asset_id in ${siteIdsNamed(viewer.tenantId, like)}`,
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .select(COLUMNS.map((c) => `c.${c}` as const))
      .orderBy('c.id', q.bulkId !== undefined ? 'asc' : 'desc')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function bulkById(db: Db, tenantId: number, id: number) {
  return db.selectFrom('device_command_bulks').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function listBulks(db: Db, tenantId: number, createdBy: number | null, page: number, limit: number) {
  let query = db.selectFrom('device_command_bulks').where('tenant_id', '=', tenantId);
  if (createdBy !== null) query = query.where('created_by', '=', createdBy);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Commands of the bulks by state, counting only the devices the viewer may see. */
export async function bulkCounts(db: Db, viewer: Viewer, bulkIds: number[]) {
  if (bulkIds.length === 0) return new Map<number, Record<CommandState, number>>();
  const rows = await db
    .selectFrom('device_commands as c')
    .select(['c.bulk_id', 'c.state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('c.tenant_id', '=', viewer.tenantId)
    .where('c.bulk_id', 'in', bulkIds)
    .where(assetVisible(viewer, 'c.asset_id'))
    .groupBy(['c.bulk_id', 'c.state'])
    .execute();
  const out = new Map<number, Record<CommandState, number>>();
  for (const r of rows) {
    const id = r.bulk_id as number;
    const counts = out.get(id) ?? (Object.fromEntries(COMMAND_STATES.map((s) => [s, 0])) as Record<CommandState, number>);
    out.set(id, counts);
    counts[r.state as CommandState] += Number(r.n);
  }
  return out;
}

/** Queued commands of these devices that have not expired, oldest first (what to hand them now). */
export function pendingFor(db: Db, deviceIds: number[], now: Date) {
  if (deviceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('device_commands')
    .select(['id', 'tenant_id', 'device_id', 'asset_id', 'bulk_id', 'method', 'params', 'oneway', 'timeout_ms'])
    .where('device_id', 'in', deviceIds)
    .where('state', '=', 'queued')
    .where('transport', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id')
    .limit(5000)
    .execute();
}

export interface Changed {
  id: number;
  tenant_id: number;
  device_id: number;
  asset_id: number | null;
  bulk_id: number | null;
  state: string;
}
const CHANGED = ['id', 'tenant_id', 'device_id', 'asset_id', 'bulk_id', 'state'] as const;

/** queued → sent, for the commands still queued (so that two processes never send one twice). */
export function claimSent(db: Db, ids: number[], now: Date, transport: 'mqtt' | 'http'): Promise<Changed[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('device_commands')
    .set({
      state: 'sent',
      sent_at: now,
      transport,
      timeout_at: sql<Date>`${now}::timestamptz + make_interval(secs => timeout_ms / 1000.0)`,
    })
    .where('id', 'in', ids)
    .where('state', '=', 'queued')
    .where('transport', 'is', null)
    .where('expires_at', '>', now)
    .returning(CHANGED)
    .execute();
}

/**
 * Claims queued commands for a publish to the external broker: they stay `queued` (nothing is sent yet) but no other
 * process or transport takes them until the claim is released or its lease (in `timeout_at`) runs out.
 */
export function claimForBroker(db: Db, ids: number[], now: Date, leaseMs: number) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('device_commands')
    .set({ transport: 'broker', timeout_at: new Date(now.getTime() + leaseMs) })
    .where('id', 'in', ids)
    .where('state', '=', 'queued')
    .where('transport', 'is', null)
    .where('expires_at', '>', now)
    .returning(['id'])
    .execute();
}

/** Claimed commands the broker acknowledged → sent (their timeout starts now). */
export function markPublished(db: Db, ids: number[], now: Date): Promise<Changed[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('device_commands')
    .set({ state: 'sent', sent_at: now, timeout_at: sql<Date>`${now}::timestamptz + make_interval(secs => timeout_ms / 1000.0)` })
    .where('id', 'in', ids)
    .where('state', '=', 'queued')
    .where('transport', '=', 'broker')
    .returning(CHANGED)
    .execute();
}

/** Claims whose publish failed (ids), or whose lease ran out (a process that died while publishing): queued again. */
export function releaseClaims(db: Db, ids: number[] | null, now: Date): Promise<Changed[]> {
  if (ids?.length === 0) return Promise.resolve([]);
  return db
    .updateTable('device_commands')
    .set({ transport: null, timeout_at: null })
    .$if(ids !== null, (q) => q.where('id', 'in', ids as number[]))
    .$if(ids === null, (q) => q.where('timeout_at', '<=', now))
    .where('state', '=', 'queued')
    .where('transport', '=', 'broker')
    .returning(CHANGED)
    .execute();
}

/**
 * Claims (queued → sent) what waits for these devices in one statement, oldest first: the embedded broker's
 * subscribers, whose commands are written at once.
 */
export async function claimPendingFor(db: Db, deviceIds: number[], now: Date, transport: 'mqtt') {
  if (deviceIds.length === 0) return [];
  const { rows } = await sql<Changed & { method: string; params: unknown; timeout_ms: number }>`
    update device_commands c set state = 'sent', sent_at = ${now}::timestamptz, transport = ${transport},
      timeout_at = ${now}::timestamptz + make_interval(secs => c.timeout_ms / 1000.0)
    where c.id in (
      select id from device_commands
      where device_id in (${sql.join(deviceIds)}) and state = 'queued' and transport is null and expires_at > ${now}::timestamptz
      order by id limit 5000)
    and c.state = 'queued' and c.transport is null
    returning c.id, c.tenant_id, c.device_id, c.asset_id, c.bulk_id, c.state, c.method, c.params, c.timeout_ms`.execute(db);
  return rows.sort((a, b) => a.id - b.id);
}

/** sent → queued again: the publish failed, or the device went away before acknowledging it. */
export function requeue(db: Db, ids: number[]): Promise<Changed[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('device_commands')
    .set({ state: 'queued', sent_at: null, timeout_at: null, transport: null })
    .where('id', 'in', ids)
    .where('state', '=', 'sent')
    .returning(CHANGED)
    .execute();
}

/** sent → delivered (one-way commands end here). */
export function markDelivered(db: Db, deviceId: number | null, ids: number[], now: Date): Promise<Changed[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('device_commands')
    .set({
      state: 'delivered',
      delivered_at: now,
      completed_at: sql<Date | null>`case when oneway then ${now}::timestamptz else null end`,
    })
    .$if(deviceId !== null, (q) => q.where('device_id', '=', deviceId as number))
    .where('id', 'in', ids)
    .where('state', '=', 'sent')
    .returning(CHANGED)
    .execute();
}

/**
 * Replies of a burst in one statement: each two-way command of its own device that is not final yet → successful or
 * failed. A queued command is answered too: the device had it (a reply proves it) and the acknowledgement was lost
 * with its connection, or the command was claimed for the external broker and its PUBACK is not recorded yet.
 */
export async function markRepliedMany(
  db: Db,
  replies: ReadonlyArray<{ deviceId: number; id: number; state: 'successful' | 'failed'; response: unknown; error: string | null }>,
  now: Date,
): Promise<Changed[]> {
  if (replies.length === 0) return [];
  const values = sql.join(
    replies.map(
      (r) => sql`(${r.id}::int, ${r.deviceId}::int, ${r.state}::text, ${JSON.stringify(r.response ?? null)}::text, ${r.error}::text)`,
    ),
  );
  const { rows } = await sql<Changed>`
    update device_commands c set state = v.state, response = v.response::jsonb, error = v.error,
      sent_at = coalesce(c.sent_at, ${now}::timestamptz), delivered_at = coalesce(c.delivered_at, ${now}::timestamptz),
      completed_at = ${now}::timestamptz
    from (values ${values}) as v(id, device_id, state, response, error)
    where c.id = v.id and c.device_id = v.device_id and not c.oneway
      and c.state in ('queued', 'sent', 'delivered')
    returning c.id, c.tenant_id, c.device_id, c.asset_id, c.bulk_id, c.state`.execute(db);
  return rows;
}

/** Commands past their deadline: sent without reply (or acknowledgement) → timeout; still queued → expired. */
export async function expireDue(db: Db, now: Date): Promise<Changed[]> {
  const timedOut = await db
    .updateTable('device_commands')
    .set({
      state: 'timeout',
      completed_at: now,
      error: sql<string>`case when oneway and transport = 'broker' then 'Published to the broker; the device does not confirm one-way commands' else 'No reply within the timeout' end`,
    })
    .where('state', 'in', ['sent', 'delivered'])
    .where('timeout_at', '<=', now)
    .where((eb) => eb.or([eb('oneway', '=', false), eb('state', '=', 'sent')]))
    .returning(CHANGED)
    .execute();
  const expired = await db
    .updateTable('device_commands')
    .set({ state: 'expired', completed_at: now, error: 'Not delivered before expiry' })
    .where('state', '=', 'queued')
    .where('expires_at', '<=', now)
    .returning(CHANGED)
    .execute();
  return [...timedOut, ...expired];
}

/** Ids of commands of these devices that were sent over HTTP and not yet acknowledged (a new poll acknowledges them). */
export function sentOverHttp(db: Db, deviceId: number) {
  return db
    .selectFrom('device_commands')
    .select('id')
    .where('device_id', '=', deviceId)
    .where('state', '=', 'sent')
    .where('transport', '=', 'http')
    .execute();
}

/** Unacknowledged MQTT commands of devices that went away, given as [device id, tenant id] (the index leads by tenant). */
export function sentOverMqtt(db: Db, devices: Array<[number, number]>) {
  const tenantIds = [...new Set(devices.map(([, tenantId]) => tenantId))];
  const deviceIds = devices.map(([deviceId]) => deviceId);
  return db
    .selectFrom('device_commands')
    .select('id')
    .where('tenant_id', 'in', tenantIds)
    .where('device_id', 'in', deviceIds)
    .where('state', '=', 'sent')
    .where('transport', '=', 'mqtt')
    .execute();
}
