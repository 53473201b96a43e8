import { type Insertable, sql, type Updateable } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { CalendarEventsTable } from './tables.ts';

export type EventRow = Awaited<ReturnType<typeof findEvent>> & object;
export type NewEvent = Omit<Insertable<CalendarEventsTable>, 'id' | 'created_at' | 'updated_at'>;
export type EventPatch = Updateable<CalendarEventsTable>;

const COLUMNS = [
  'id',
  'tenant_id',
  'title',
  'kind',
  'all_day',
  'start_local',
  'end_local',
  'time_zone',
  'recurrence',
  'exceptions',
  'series_id',
  'original_start',
  'site_id',
  'device_id',
  'cluster_id',
  'notes',
  'color',
  'assignee_ids',
  'starts_at',
  'ends_at',
  'created_by',
  'version',
  'created_at',
  'updated_at',
] as const;

export const findEvent = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('calendar_events').select(COLUMNS).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const lockEvent = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('calendar_events').select(COLUMNS).where('tenant_id', '=', tenantId).where('id', '=', id).forUpdate().executeTakeFirst();

export const insertEvent = (db: Db, e: NewEvent) =>
  db
    .insertInto('calendar_events')
    .values(e as Insertable<CalendarEventsTable>)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();

export const updateEvent = (db: Db, tenantId: number, id: number, patch: EventPatch, at: Date) =>
  db
    .updateTable('calendar_events')
    .set({ ...patch, version: sql`version + 1`, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();

export const deleteEvent = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('calendar_events').where('tenant_id', '=', tenantId).where('id', '=', id).returning(['id']).execute();

/** Moved occurrences of a series (they go with it). */
export const detachedOf = (db: Db, tenantId: number, seriesId: number) =>
  db.selectFrom('calendar_events').select(COLUMNS).where('tenant_id', '=', tenantId).where('series_id', '=', seriesId).execute();

export interface RangeFilter {
  /** null: every site (and events without one); otherwise events at these sites, or without a site. */
  siteIds: number[] | 'all';
  /** Events the user takes part in or made, whatever their site. */
  userId: number;
  assigneeId?: number;
  /** Events at these sites (a site or a cluster filter), or of this cluster. */
  onlySites?: number[];
  clusterId?: number;
  kind?: string;
}

/** Events and series that may have an occurrence in [from, to), visible by the filter. */
export function eventsInRange(db: Db, tenantId: number, from: Date, to: Date, f: RangeFilter, limit: number) {
  let q = db
    .selectFrom('calendar_events')
    .select(COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('starts_at', '<', to)
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', from)]));
  q = visible(q, f);
  if (f.assigneeId !== undefined) q = q.where(sql<boolean>`assignee_ids @> array[${f.assigneeId}]::int[]`);
  if (f.onlySites) {
    const sites = f.onlySites;
    const cluster = f.clusterId;
    q = q.where((eb) =>
      eb.or([
        ...(sites.length ? [eb('site_id', 'in', sites)] : []),
        ...(cluster !== undefined ? [eb('cluster_id', '=', cluster)] : []),
        sql<boolean>`false`,
      ]),
    );
  }
  if (f.kind) q = q.where('kind', '=', f.kind);
  return q.orderBy('starts_at').orderBy('id').limit(limit).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: only columns of calendar_events are touched
function visible<Q extends { where: any }>(q: Q, f: Pick<RangeFilter, 'siteIds' | 'userId'>): Q {
  if (f.siteIds === 'all') return q;
  const sites = f.siteIds;
  const me = f.userId;
  // biome-ignore lint/suspicious/noExplicitAny: see above
  return q.where((eb: any) =>
    eb.or([
      eb('site_id', 'is', null),
      ...(sites.length ? [eb('site_id', 'in', sites)] : []),
      eb('created_by', '=', me),
      sql<boolean>`assignee_ids @> array[${me}]::int[]`,
    ]),
  ) as Q;
}

export async function listEvents(
  db: Db,
  tenantId: number,
  f: Pick<RangeFilter, 'siteIds' | 'userId'> & { search?: string; kind?: string },
  page: number,
  limit: number,
) {
  let q = db.selectFrom('calendar_events').where('tenant_id', '=', tenantId);
  q = visible(q, f);
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.search) q = q.where(sql<boolean>`title ilike ${`%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  const [rows, count] = await Promise.all([
    q
      .select(COLUMNS)
      .orderBy('starts_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Every maintenance window of every tenant that has not ended by `at` (the start-up and periodic reconcile). */
export const openWindows = (db: Db, at: Date) =>
  db
    .selectFrom('calendar_events')
    .select(['tenant_id', 'id'])
    .where('kind', '=', 'maintenance_window')
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', at)]))
    .execute();

// Window runs: a window in force and what it switched on.
export const findRun = (db: Db, tenantId: number, eventId: number) =>
  db.selectFrom('calendar_window_runs').selectAll().where('tenant_id', '=', tenantId).where('event_id', '=', eventId).executeTakeFirst();

export const insertRun = (
  db: Db,
  r: {
    tenant_id: number;
    event_id: number;
    title: string;
    occurrence: string;
    starts_at: Date;
    ends_at: Date;
    site_id: number | null;
    device_ids: number[];
    switched_on: number[];
    sla_site_ids: number[];
  },
) => db.insertInto('calendar_window_runs').values(r).execute();

export const deleteRun = (db: Db, tenantId: number, eventId: number) =>
  db.deleteFrom('calendar_window_runs').where('tenant_id', '=', tenantId).where('event_id', '=', eventId).execute();

/** Other runs in force of the tenant (a device or site held by two windows stays in maintenance until both end). */
export const otherRuns = (db: Db, tenantId: number, eventId: number) =>
  db.selectFrom('calendar_window_runs').selectAll().where('tenant_id', '=', tenantId).where('event_id', '<>', eventId).execute();

/** The run in force covering a device. */
export const runOfDevice = (db: Db, tenantId: number, deviceId: number) =>
  db
    .selectFrom('calendar_window_runs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`device_ids @> array[${deviceId}]::int[]`)
    .orderBy('ends_at', 'desc')
    .executeTakeFirst();

/** Every window in force, of every tenant (the sweep also ends those whose event went or ended). */
export const allRuns = (db: Db) => db.selectFrom('calendar_window_runs').select(['tenant_id', 'event_id']).execute();
