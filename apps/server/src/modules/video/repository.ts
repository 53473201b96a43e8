import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { cameraDevices } from '../devices/scope.ts';
import { siteIdsUnderPath } from '../sites/scope.ts';
import { notPinned } from './evidence-repository.ts';

/** The only SQL of the video domain. Every function takes the tenant (the recorder's scans are marked as such). */

// ------------------------------------------------------------------ storages

export const listStorages = (db: Db, tenantId: number, offset: number, limit: number) =>
  db
    .selectFrom('video_storages as s')
    .selectAll('s')
    .select((eb) => [
      eb
        .selectFrom('video_segments as g')
        .select(sql<number>`coalesce(sum(g.bytes), 0)`.as('used'))
        .whereRef('g.tenant_id', '=', 's.tenant_id')
        .whereRef('g.storage_path', '=', 's.path')
        .as('used_bytes'),
      eb
        .selectFrom('video_cameras as c')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('c.tenant_id', '=', 's.tenant_id')
        .whereRef('c.storage_id', '=', 's.id')
        .as('camera_count'),
    ])
    .where('s.tenant_id', '=', tenantId)
    .orderBy('s.id')
    .offset(offset)
    .limit(limit)
    .execute();

export type StorageRow = Awaited<ReturnType<typeof listStorages>>[number];

export const countStorages = async (db: Db, tenantId: number) =>
  Number(
    (
      await db
        .selectFrom('video_storages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const findStorage = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('video_storages').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const findStorageByPath = (db: Db, tenantId: number, path: string) =>
  db.selectFrom('video_storages').selectAll().where('tenant_id', '=', tenantId).where('path', '=', path).executeTakeFirst();

export const defaultStorage = (db: Db, tenantId: number) =>
  db.selectFrom('video_storages').selectAll().where('tenant_id', '=', tenantId).where('is_default', '=', true).executeTakeFirst();

/** Creates (id null) or changes a storage; a new default takes the mark from the old one. Call it in a transaction. */
export async function saveStorage(
  trx: Db,
  tenantId: number,
  id: number | null,
  values: { name: string; path: string; retention_days: number; max_bytes: number | null; is_default: boolean },
) {
  if (values.is_default) {
    await trx
      .updateTable('video_storages')
      .set({ is_default: false })
      .where('tenant_id', '=', tenantId)
      .where('is_default', '=', true)
      .execute();
  }
  if (id === null) {
    return (
      await trx
        .insertInto('video_storages')
        .values({ tenant_id: tenantId, ...values })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  const row = await trx
    .updateTable('video_storages')
    .set({ ...values, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export const deleteStorage = async (db: Db, tenantId: number, id: number) =>
  Number((await db.deleteFrom('video_storages').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()).numDeletedRows) >
  0;

export const storageNameTaken = async (db: Db, tenantId: number, name: string, path: string, exceptId: number | null) => {
  let q = db
    .selectFrom('video_storages')
    .select(['name', 'path'])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('name', '=', name), eb('path', '=', path)]));
  if (exceptId !== null) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
};

// ------------------------------------------------------------------ cameras

const cameraColumns = [
  'c.tenant_id',
  'c.device_id',
  'c.label',
  'c.asset_id',
  'c.simulated',
  'c.stream_url',
  'c.recording_enabled',
  'c.segment_sec',
  'c.storage_id',
  'c.state',
  'c.last_error',
  'c.last_segment_at',
  'c.live_until',
  'c.updated_at',
  's.path as storage_path',
] as const;

const cameraQuery = (db: Db) =>
  db
    .selectFrom('video_cameras as c')
    .leftJoin('video_storages as s', (j) => j.onRef('s.id', '=', 'c.storage_id').onRef('s.tenant_id', '=', 'c.tenant_id'))
    .select(cameraColumns);

export type CameraRow = Awaited<ReturnType<ReturnType<typeof cameraQuery>['executeTakeFirstOrThrow']>>;

export const findCamera = (db: Db, tenantId: number, deviceId: number) =>
  cameraQuery(db).where('c.tenant_id', '=', tenantId).where('c.device_id', '=', deviceId).executeTakeFirst();

/** The stream URLs of these cameras (configured, not simulated), by device id. */
export const streamUrls = (db: Db, tenantId: number, deviceIds: number[]) =>
  deviceIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('video_cameras')
        .select(['device_id', 'stream_url'])
        .where('tenant_id', '=', tenantId)
        .where('device_id', 'in', deviceIds)
        .where('simulated', '=', false)
        .where('stream_url', 'is not', null)
        .execute();

/** The configured cameras of one site, newest picture first (attendance takes a still of the site). */
export const camerasAtSite = (db: Db, tenantId: number, assetId: number) =>
  db
    .selectFrom('video_cameras')
    .select(['device_id', 'label', 'simulated'])
    .where('tenant_id', '=', tenantId)
    .where('asset_id', '=', assetId)
    .orderBy(sql`last_segment_at desc nulls last`)
    .orderBy('device_id')
    .limit(5)
    .execute();

/**
 * Every CAMERA device of the tenant (one notion of camera: the site summary, the device pages and video agree),
 * with its video config when it has one. The devices module's `cameraDevices` gives the device side.
 */
export function listCameras(
  db: Db,
  tenantId: number,
  opts: {
    assetIds: number[] | 'all';
    search?: string;
    assetId?: number;
    path?: string[];
    deviceId?: number;
    configured?: boolean;
    ids?: number[];
    offset: number;
    limit: number;
  },
) {
  let q = db
    .selectFrom(cameraDevices(db, tenantId).as('d'))
    .leftJoin('video_cameras as c', (j) => j.onRef('c.device_id', '=', 'd.id').onRef('c.tenant_id', '=', 'd.tenant_id'))
    .leftJoin('video_storages as s', (j) => j.onRef('s.id', '=', 'c.storage_id').onRef('s.tenant_id', '=', 'c.tenant_id'))
    .select(['d.id', 'd.name', 'd.label as device_label', 'd.asset_id as device_asset_id', 'd.parent_id', 'd.parent_label', 'd.site_name'])
    .select([
      'c.device_id as config_device_id',
      'c.simulated',
      'c.stream_url',
      'c.recording_enabled',
      'c.segment_sec',
      'c.storage_id',
      'c.state',
      'c.last_error',
      'c.last_segment_at',
      'c.live_until',
      's.path as storage_path',
    ]);
  if (opts.assetIds !== 'all') q = opts.assetIds.length ? q.where('d.asset_id', 'in', opts.assetIds) : q.where(sql<boolean>`false`);
  if (opts.assetId) q = q.where('d.asset_id', '=', opts.assetId);
  if (opts.path?.length) q = q.where(sql<boolean>`d.asset_id in ${siteIdsUnderPath(tenantId, opts.path)}`);
  if (opts.deviceId)
    q = q.where((eb) => eb.or([eb('d.id', '=', opts.deviceId as number), eb('d.parent_id', '=', opts.deviceId as number)]));
  if (opts.configured !== undefined) q = q.where('c.device_id', opts.configured ? 'is not' : 'is', null);
  if (opts.ids) q = opts.ids.length ? q.where('d.id', 'in', opts.ids) : q.where(sql<boolean>`false`);
  if (opts.search) {
    // a camera is found by its label or by its site's name (labels repeat at every site)
    const like = `%${opts.search.replace(/[%_\\]/g, '\\$&')}%`;
    q = q.where((eb) => eb.or([eb('d.label', 'ilike', like), eb('d.site_name', 'ilike', like)]));
  }
  return {
    rows: () => q.orderBy('d.site_name').orderBy('d.label').orderBy('d.id').offset(opts.offset).limit(opts.limit).execute(),
    count: async () =>
      Number(
        (
          await q
            .clearSelect()
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
export type CameraListRow = Awaited<ReturnType<ReturnType<typeof listCameras>['rows']>>[number];

export async function upsertCamera(
  db: Db,
  tenantId: number,
  deviceId: number,
  values: {
    label: string;
    asset_id: number | null;
    simulated: boolean;
    stream_url: string | null;
    recording_enabled: boolean;
    segment_sec: number;
    storage_id: number | null;
  },
) {
  await db
    .insertInto('video_cameras')
    .values({ tenant_id: tenantId, device_id: deviceId, ...values })
    .onConflict((oc) => oc.columns(['tenant_id', 'device_id']).doUpdateSet({ ...values, updated_at: sql`now()` }))
    .execute();
}

/** CAMERA devices of the tenant with no video config yet (the demo makes them simulated, on demand). */
export const unconfiguredCameras = (db: Db, tenantId: number) =>
  db
    .selectFrom(cameraDevices(db, tenantId).as('d'))
    .leftJoin('video_cameras as c', (j) => j.onRef('c.device_id', '=', 'd.id').onRef('c.tenant_id', '=', 'd.tenant_id'))
    .select(['d.id', 'd.label', 'd.asset_id'])
    .where('c.device_id', 'is', null)
    .execute();

/** Configures many cameras at once as simulated sources that run only while watched (no continuous recording). */
export async function insertOnDemandSimulated(db: Db, tenantId: number, cameras: { id: number; label: string; asset_id: number | null }[]) {
  for (let i = 0; i < cameras.length; i += 500) {
    await db
      .insertInto('video_cameras')
      .values(
        cameras.slice(i, i + 500).map((c) => ({
          tenant_id: tenantId,
          device_id: c.id,
          label: c.label,
          asset_id: c.asset_id,
          simulated: true,
          stream_url: null,
          recording_enabled: false,
          segment_sec: 1,
          storage_id: null,
        })),
      )
      .onConflict((oc) => oc.columns(['tenant_id', 'device_id']).doNothing())
      .execute();
  }
}

export const refreshCameraCopy = (db: Db, tenantId: number, deviceId: number, label: string, assetId: number | null) =>
  db
    .updateTable('video_cameras')
    .set({ label, asset_id: assetId })
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .where((eb) => eb.or([eb('label', '<>', label), eb('asset_id', 'is distinct from', assetId)]))
    .execute();

export const deleteCamera = (db: Db, tenantId: number, deviceId: number) =>
  db.deleteFrom('video_cameras').where('tenant_id', '=', tenantId).where('device_id', '=', deviceId).execute();

/** Keeps a camera running for live view until the lease ends; null ends it. */
export const setLiveLease = (db: Db, tenantId: number, deviceId: number, until: Date | null) =>
  db.updateTable('video_cameras').set({ live_until: until }).where('tenant_id', '=', tenantId).where('device_id', '=', deviceId).execute();

/** Recorder scan, across tenants: every camera that should run now. */
export const camerasToRun = (db: Db) =>
  cameraQuery(db)
    .where((eb) => eb.or([eb('c.recording_enabled', '=', true), eb('c.live_until', '>', sql<Date>`now()`)]))
    .execute();

export const setCameraState = (db: Db, tenantId: number, deviceId: number, state: string, lastError: string | null) =>
  db
    .updateTable('video_cameras')
    .set({ state, last_error: lastError })
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .execute();

/** Recorder shutdown, across tenants: nothing runs any more. */
export const markAllStopped = (db: Db, deviceKeys: { tenantId: number; deviceId: number }[]) =>
  deviceKeys.length === 0
    ? Promise.resolve()
    : db
        .updateTable('video_cameras')
        .set({ state: 'stopped' })
        .where((eb) => eb.or(deviceKeys.map((k) => eb.and([eb('tenant_id', '=', k.tenantId), eb('device_id', '=', k.deviceId)]))))
        .execute();

// ------------------------------------------------------------------ segments

export interface NewSegment {
  tenant_id: number;
  device_id: number;
  storage_path: string;
  run: string;
  file: string;
  start_at: Date;
  end_at: Date;
  bytes: number;
}

/** Recorder indexing, across tenants: one multi-row insert per scan. */
export async function insertSegments(db: Db, segments: NewSegment[]) {
  if (segments.length === 0) return;
  await db
    .insertInto('video_segments')
    .values(segments)
    .onConflict((oc) => oc.columns(['tenant_id', 'device_id', 'run', 'file']).doNothing())
    .execute();
  const latest = new Map<string, NewSegment>();
  for (const s of segments) {
    const key = `${s.tenant_id}:${s.device_id}`;
    const seen = latest.get(key);
    if (!seen || seen.end_at < s.end_at) latest.set(key, s);
  }
  for (const s of latest.values()) {
    await db
      .updateTable('video_cameras')
      .set({ last_segment_at: s.end_at, state: 'recording', last_error: null })
      .where('tenant_id', '=', s.tenant_id)
      .where('device_id', '=', s.device_id)
      .execute();
  }
}

export const segmentsInRange = (db: Db, tenantId: number, deviceId: number, from: Date, to: Date) =>
  db
    .selectFrom('video_segments')
    .select(['id', 'storage_path', 'run', 'file', 'start_at', 'end_at', 'bytes'])
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .where('start_at', '<', to)
    .where('end_at', '>', from)
    // a segment is at most a few seconds: bound the index scan from below too
    .where('start_at', '>', new Date(from.getTime() - 60_000))
    .orderBy('start_at')
    .orderBy('id')
    .limit(20_000)
    .execute();

export type SegmentRow = Awaited<ReturnType<typeof segmentsInRange>>[number];

export const latestSegment = (db: Db, tenantId: number, deviceId: number) =>
  db
    .selectFrom('video_segments')
    .select(['id', 'storage_path', 'run', 'file', 'start_at', 'end_at', 'bytes'])
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .orderBy('start_at', 'desc')
    .limit(1)
    .executeTakeFirst();

export const storagePathOfRun = async (db: Db, tenantId: number, deviceId: number, run: string) =>
  (
    await db
      .selectFrom('video_segments')
      .select('storage_path')
      .where('tenant_id', '=', tenantId)
      .where('device_id', '=', deviceId)
      .where('run', '=', run)
      .limit(1)
      .executeTakeFirst()
  )?.storage_path;

/**
 * Timeline: stretches of contiguous footage, merged in SQL (gaps-and-islands) so that a day of 2 s segments
 * comes back as a handful of rows. `toleranceMs` is the largest hole still counted as continuous within a run; a
 * new run (the recorder restarted after a drop) always starts a new stretch, as it starts a discontinuity in the
 * playback playlist, however close its first segment's clock is to the last one of the run before.
 */
export async function footageRanges(db: Db, tenantId: number, deviceId: number, from: Date, to: Date, toleranceMs = 1500) {
  const result = await sql<{ start: Date; end: Date }>`
    with s as (
      select start_at, end_at,
        case
          when run = lag(run) over w and start_at - lag(end_at) over w <= make_interval(secs => ${toleranceMs / 1000}) then 0
          else 1
        end as brk
      from video_segments
      where tenant_id = ${tenantId} and device_id = ${deviceId} and start_at < ${to} and end_at > ${from}
      window w as (order by start_at)
    ), g as (select start_at, end_at, sum(brk) over (order by start_at) as grp from s)
    select min(start_at) as start, max(end_at) as "end" from g group by grp order by 1
  `.execute(db);
  return result.rows.map((r) => ({ start: new Date(r.start), end: new Date(r.end) }));
}

// ------------------------------------------------------------------ retention

/** Retention scan, across tenants: segments of a storage older than the cut-off, oldest first. */
export const segmentsOlderThan = (db: Db, tenantId: number, storagePath: string, before: Date, limit: number) =>
  db
    .selectFrom('video_segments')
    .select(['id', 'device_id', 'storage_path', 'run', 'file', 'bytes'])
    .where('tenant_id', '=', tenantId)
    .where('storage_path', '=', storagePath)
    .where('start_at', '<', before)
    .where(notPinned)
    .orderBy('start_at')
    .limit(limit)
    .execute();

export const oldestSegments = (db: Db, tenantId: number, storagePath: string, limit: number) =>
  db
    .selectFrom('video_segments')
    .select(['id', 'device_id', 'storage_path', 'run', 'file', 'bytes'])
    .where('tenant_id', '=', tenantId)
    .where('storage_path', '=', storagePath)
    .where(notPinned)
    .orderBy('start_at')
    .limit(limit)
    .execute();

export const usedBytes = async (db: Db, tenantId: number, storagePath: string) =>
  Number(
    (
      await db
        .selectFrom('video_segments')
        .select(sql<number>`coalesce(sum(bytes), 0)`.as('n'))
        .where('tenant_id', '=', tenantId)
        .where('storage_path', '=', storagePath)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every (tenant, storage path) that holds footage, with its retention settings when the storage still exists. */
export const footageStores = (db: Db) =>
  db
    .selectFrom('video_segments as g')
    .leftJoin('video_storages as s', (j) => j.onRef('s.tenant_id', '=', 'g.tenant_id').onRef('s.path', '=', 'g.storage_path'))
    .select(['g.tenant_id', 'g.storage_path', 's.retention_days', 's.max_bytes'])
    .groupBy(['g.tenant_id', 'g.storage_path', 's.retention_days', 's.max_bytes'])
    .execute();

export const deleteSegmentRows = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0 ? Promise.resolve() : db.deleteFrom('video_segments').where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();

export const runHasSegments = async (db: Db, tenantId: number, deviceId: number, run: string) =>
  !!(await db
    .selectFrom('video_segments')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('device_id', '=', deviceId)
    .where('run', '=', run)
    .limit(1)
    .executeTakeFirst());

// ------------------------------------------------------------------ tours

export const listTours = (db: Db, tenantId: number, offset: number, limit: number) =>
  db.selectFrom('video_tours').selectAll().where('tenant_id', '=', tenantId).orderBy('id', 'desc').offset(offset).limit(limit).execute();
export const countTours = async (db: Db, tenantId: number) =>
  Number(
    (
      await db
        .selectFrom('video_tours')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow()
    ).n,
  );
export const findTour = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('video_tours').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
export type TourRow = NonNullable<Awaited<ReturnType<typeof findTour>>>;
export const insertTour = async (
  db: Db,
  tenantId: number,
  userId: number,
  v: { name: string; layout: number; stops: { cameraId: number; dwellSec: number }[] },
) =>
  (
    await db
      .insertInto('video_tours')
      .values({ tenant_id: tenantId, created_by: userId, name: v.name, layout: v.layout, stops: JSON.stringify(v.stops) })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
export const updateTour = async (
  db: Db,
  tenantId: number,
  id: number,
  v: { name: string; layout: number; stops: { cameraId: number; dwellSec: number }[] },
) =>
  Number(
    (
      await db
        .updateTable('video_tours')
        .set({ name: v.name, layout: v.layout, stops: JSON.stringify(v.stops), updated_at: sql`now()` })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .executeTakeFirst()
    ).numUpdatedRows,
  ) > 0;
export const deleteTour = async (db: Db, tenantId: number, id: number) =>
  Number((await db.deleteFrom('video_tours').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

// ------------------------------------------------------------------ incidents

const incidentQuery = (db: Db, tenantId: number) =>
  db
    .selectFrom('video_incidents as i')
    .leftJoin('video_cameras as c', (j) => j.onRef('c.tenant_id', '=', 'i.tenant_id').onRef('c.device_id', '=', 'i.device_id'))
    .selectAll('i')
    .select(['c.label as camera_label', 'c.asset_id'])
    .where('i.tenant_id', '=', tenantId);
export type IncidentRow = Awaited<ReturnType<ReturnType<typeof incidentQuery>['executeTakeFirstOrThrow']>>;

export function listIncidents(
  db: Db,
  tenantId: number,
  opts: { assetIds: number[] | 'all'; search?: string; cameraId?: number; status?: string; offset: number; limit: number },
) {
  let q = incidentQuery(db, tenantId);
  if (opts.assetIds !== 'all') q = opts.assetIds.length ? q.where('c.asset_id', 'in', opts.assetIds) : q.where(sql<boolean>`false`);
  if (opts.cameraId) q = q.where('i.device_id', '=', opts.cameraId);
  if (opts.status) q = q.where('i.status', '=', opts.status);
  if (opts.search) {
    const like = `%${opts.search.replace(/[%_\\]/g, '\\$&')}%`;
    q = q.where((eb) => eb.or([eb('i.title', 'ilike', like), eb('i.awb', 'ilike', like), eb('i.table_number', 'ilike', like)]));
  }
  return {
    rows: () => q.orderBy('i.id', 'desc').offset(opts.offset).limit(opts.limit).execute(),
    count: async () =>
      Number(
        (
          await q
            .clearSelect()
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
}
export const findIncident = (db: Db, tenantId: number, id: number) => incidentQuery(db, tenantId).where('i.id', '=', id).executeTakeFirst();
export const insertIncident = async (
  db: Db,
  tenantId: number,
  v: {
    title: string;
    description: string;
    awb: string;
    table_number: string;
    device_id: number;
    event_at: Date;
    duration_sec: number;
    created_by: number;
  },
) =>
  (
    await db
      .insertInto('video_incidents')
      .values({ tenant_id: tenantId, ...v })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
export const updateIncident = (
  db: Db,
  tenantId: number,
  id: number,
  v: Partial<{
    title: string;
    description: string;
    awb: string;
    table_number: string;
    status: string;
    clip_status: string;
    clip_key: string | null;
  }>,
) =>
  db
    .updateTable('video_incidents')
    .set({ ...v, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();
export const deleteIncident = async (db: Db, tenantId: number, id: number) =>
  Number(
    (await db.deleteFrom('video_incidents').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()).numDeletedRows,
  ) > 0;

// ------------------------------------------------------------------ clip jobs

export async function insertClipJob(
  db: Db,
  tenantId: number,
  userId: number,
  name: string,
  tasks: { device_id: number; name: string; camera_label: string | null; start_at: Date; end_at: Date }[],
) {
  const job = await db
    .insertInto('video_clip_jobs')
    .values({ tenant_id: tenantId, user_id: userId, name })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('video_clip_tasks')
    .values(tasks.map((t) => ({ ...t, tenant_id: tenantId, job_id: job.id })))
    .execute();
  return job.id;
}
export const setClipQueueJob = (db: Db, tenantId: number, jobId: number, queueJobId: number) =>
  db.updateTable('video_clip_jobs').set({ queue_job_id: queueJobId }).where('tenant_id', '=', tenantId).where('id', '=', jobId).execute();

export const listClipJobs = (db: Db, tenantId: number, userId: number, limit: number) =>
  db
    .selectFrom('video_clip_jobs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
export const findClipJob = (db: Db, tenantId: number, jobId: number) =>
  db.selectFrom('video_clip_jobs').selectAll().where('tenant_id', '=', tenantId).where('id', '=', jobId).executeTakeFirst();
export type ClipJobRow = NonNullable<Awaited<ReturnType<typeof findClipJob>>>;
export const clipTasks = (db: Db, tenantId: number, jobIds: number[]) =>
  jobIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('video_clip_tasks').selectAll().where('tenant_id', '=', tenantId).where('job_id', 'in', jobIds).orderBy('id').execute();
export type ClipTaskRow = Awaited<ReturnType<typeof clipTasks>>[number];
export const updateClipJob = (
  db: Db,
  tenantId: number,
  jobId: number,
  v: Partial<{ status: string; error: string | null; expires_at: Date | null; downloaded: boolean }>,
) =>
  db
    .updateTable('video_clip_jobs')
    .set({ ...v, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', jobId)
    .execute();
export const updateClipTask = (
  db: Db,
  tenantId: number,
  taskId: number,
  v: Partial<{ status: string; progress: number; file: string | null; bytes: number | null; error: string | null; is_read: boolean }>,
) =>
  db
    .updateTable('video_clip_tasks')
    .set({ ...v, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', taskId)
    .execute();
export const findClipTask = (db: Db, tenantId: number, jobId: number, tid: string) =>
  db
    .selectFrom('video_clip_tasks')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('job_id', '=', jobId)
    .where('tid', '=', tid)
    .executeTakeFirst();
export const deleteClipJob = (db: Db, tenantId: number, jobId: number) =>
  db.deleteFrom('video_clip_jobs').where('tenant_id', '=', tenantId).where('id', '=', jobId).execute();
/** Expiry scan, across tenants. */
export const expiredClipJobs = (db: Db) =>
  db.selectFrom('video_clip_jobs').select(['id', 'tenant_id']).where('expires_at', '<', sql<Date>`now()`).limit(500).execute();
