import { type Selectable, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { AttendanceRecordsTable } from './tables.ts';

export type AttendanceRow = Selectable<AttendanceRecordsTable>;

/** Which records a caller may read: every user's on these sites (or all), or only their own. */
export interface AttendanceScope {
  tenantId: number;
  sites: number[] | 'all';
  /** Set when the caller sees only their own records. */
  userId?: number;
}

export interface AttendanceQuery {
  userId?: number;
  assetId?: number;
  ticketId?: number;
  from?: string;
  to?: string;
  /** Open records only (no check-out yet). */
  open?: boolean;
  /** Open since before this time: missing check-outs. */
  openSince?: Date;
}

function scoped(db: Db, scope: AttendanceScope, q: AttendanceQuery) {
  let query = db.selectFrom('attendance_records').where('tenant_id', '=', scope.tenantId);
  if (scope.sites !== 'all') query = query.where('asset_id', '=', sql<number>`any(${sql.val(scope.sites)}::int[])`);
  if (scope.userId !== undefined) query = query.where('user_id', '=', scope.userId);
  if (q.userId !== undefined) query = query.where('user_id', '=', q.userId);
  if (q.assetId !== undefined) query = query.where('asset_id', '=', q.assetId);
  if (q.ticketId !== undefined) query = query.where('ticket_id', '=', q.ticketId);
  if (q.from) query = query.where('check_in_at', '>=', new Date(q.from));
  if (q.to) query = query.where('check_in_at', '<', new Date(q.to));
  if (q.open === true) query = query.where('check_out_at', 'is', null);
  if (q.open === false) query = query.where('check_out_at', 'is not', null);
  if (q.openSince) query = query.where('check_out_at', 'is', null).where('check_in_at', '<', q.openSince);
  return query;
}

export const listRecords = (db: Db, scope: AttendanceScope, q: AttendanceQuery, page: { offset: number; limit: number }) =>
  scoped(db, scope, q).selectAll().orderBy('check_in_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute();

export const countRecords = async (db: Db, scope: AttendanceScope, q: AttendanceQuery) =>
  Number(
    (
      await scoped(db, scope, q)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A page of records after a keyset cursor (id descending), for the export. */
export const recordsAfter = (db: Db, scope: AttendanceScope, q: AttendanceQuery, cursor: number | null, limit: number) => {
  let query = scoped(db, scope, q).selectAll();
  if (cursor !== null) query = query.where('id', '<', cursor);
  return query.orderBy('id', 'desc').limit(limit).execute();
};

export const findRecord = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('attendance_records').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

/** The user's latest record (open or closed): where and when they were last seen. */
export const latestRecordOf = (db: Db, tenantId: number, userId: number) =>
  db
    .selectFrom('attendance_records')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('check_in_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const openRecordOf = (db: Db, tenantId: number, userId: number) =>
  db
    .selectFrom('attendance_records')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('check_out_at', 'is', null)
    .executeTakeFirst();

export interface NewRecord {
  tenantId: number;
  userId: number;
  assetId: number;
  ticketId: number | null;
  /** When it was done at the site. */
  at: Date;
  /** When it reached the server (later than `at` when it was sent from the phone's outbox). */
  receivedAt: Date;
  latitude: number;
  longitude: number;
  accuracy: number | null;
  distance: number;
  travelKmh: number | null;
  snapshotState: 'pending' | 'none';
}

/** Inserts the check-in; null when the user already has an open record (the partial unique index decides). */
export const insertRecord = (db: Db, r: NewRecord) =>
  db
    .insertInto('attendance_records')
    .values({
      tenant_id: r.tenantId,
      user_id: r.userId,
      asset_id: r.assetId,
      ticket_id: r.ticketId,
      check_in_at: r.at,
      check_in_lat: r.latitude,
      check_in_lng: r.longitude,
      check_in_accuracy: r.accuracy,
      distance_m: r.distance,
      travel_kmh: r.travelKmh,
      snapshot_state: r.snapshotState,
      created_at: r.receivedAt,
      updated_at: r.receivedAt,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).where('check_out_at', 'is', null).doNothing())
    .returningAll()
    .executeTakeFirst();

export const closeRecord = (
  db: Db,
  tenantId: number,
  id: number,
  at: { done: Date; received: Date },
  position: { latitude: number | null; longitude: number | null; accuracy: number | null },
) =>
  db
    .updateTable('attendance_records')
    .set({
      check_out_at: at.done,
      check_out_received_at: at.received,
      check_out_lat: position.latitude,
      check_out_lng: position.longitude,
      check_out_accuracy: position.accuracy,
      updated_at: at.received,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('check_out_at', 'is', null)
    .returningAll()
    .executeTakeFirst();

export const setMovedTickets = (db: Db, tenantId: number, id: number, ticketIds: number[]) =>
  db
    .updateTable('attendance_records')
    .set({ moved_ticket_ids: ticketIds })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export const setSnapshot = (
  db: Db,
  tenantId: number,
  id: number,
  s: { state: string; key?: string | null; at?: Date | null; camera?: string | null },
) =>
  db
    .updateTable('attendance_records')
    .set({ snapshot_state: s.state, snapshot_key: s.key ?? null, snapshot_at: s.at ?? null, snapshot_camera: s.camera ?? null })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export interface HoursRow {
  user_id: number;
  day: string;
  seconds: number | string;
  records: number | string;
  open: number | string;
}

/** Worked time per user and day of check-in (in the time zone), closed records counted, open ones counted apart. */
export const hoursPerDay = (db: Db, scope: AttendanceScope, q: AttendanceQuery, timeZone: string, limit: number) =>
  scoped(db, scope, q)
    .select([
      'user_id',
      sql<string>`to_char(check_in_at at time zone ${timeZone}, 'YYYY-MM-DD')`.as('day'),
      sql<number>`coalesce(sum(extract(epoch from (check_out_at - check_in_at))) filter (where check_out_at is not null), 0)`.as('seconds'),
      sql<number>`count(*)`.as('records'),
      sql<number>`count(*) filter (where check_out_at is null)`.as('open'),
    ])
    .groupBy(['user_id', sql`2`])
    .orderBy(sql`2`, 'desc')
    .orderBy('user_id')
    .limit(limit)
    .execute() as Promise<HoursRow[]>;
