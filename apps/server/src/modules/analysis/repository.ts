import type { Analyser, AnalysisResultQuery, Verdict } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

export interface NewResult {
  tenant_id: number;
  device_id: number;
  asset_id: number | null;
  analyser: Analyser;
  at: Date;
  end_at: Date | null;
  score: number;
  detail: string;
  frame_file: string | null;
}

const resultColumns = [
  'id',
  'device_id',
  'asset_id',
  'analyser',
  'at',
  'end_at',
  'score',
  'detail',
  'frame_file',
  'verdict',
  'reason',
  'verified_by',
  'verified_at',
  'ticket_id',
  'ticket_no',
] as const;

export const cameraState = (db: Db, tenantId: number, deviceId: number) =>
  db.selectFrom('analysis_cameras').selectAll().where('tenant_id', '=', tenantId).where('device_id', '=', deviceId).executeTakeFirst();

export async function saveCameraState(
  db: Db,
  tenantId: number,
  deviceId: number,
  patch: {
    analysed_until?: Date;
    reference_file?: string | null;
    reference_at?: Date | null;
    video_lost_since?: Date | null;
    region?: string | null;
    motion_from?: string | null;
    motion_to?: string | null;
    motion_tz?: string | null;
    motion_threshold?: number;
  },
) {
  await db
    .insertInto('analysis_cameras')
    .values({ tenant_id: tenantId, device_id: deviceId, ...patch })
    .onConflict((oc) => oc.columns(['tenant_id', 'device_id']).doUpdateSet(patch))
    .execute();
}

/** When the camera's latest finding of this analyser was made (a fault that goes on is told once). */
export const lastFindingAt = async (db: Db, tenantId: number, deviceId: number, analyser: Analyser) =>
  (
    await db
      .selectFrom('analysis_results')
      .select('at')
      .where('tenant_id', '=', tenantId)
      .where('device_id', '=', deviceId)
      .where('analyser', '=', analyser)
      .orderBy('at', 'desc')
      .limit(1)
      .executeTakeFirst()
  )?.at ?? null;

export const insertResult = (db: Db, row: NewResult) =>
  db.insertInto('analysis_results').values(row).returning(['id']).executeTakeFirstOrThrow();

export const setFrame = (db: Db, id: number, file: string) =>
  db.updateTable('analysis_results').set({ frame_file: file }).where('id', '=', id).execute();

export const setTicket = (db: Db, id: number, ticketId: number, ticketNo: string) =>
  db.updateTable('analysis_results').set({ ticket_id: ticketId, ticket_no: ticketNo }).where('id', '=', id).execute();

type Scope = number[] | 'all';

/** The results on the sites in scope (asset ids the caller may see, or all), with the list's filters. */
function filtered(db: Db, tenantId: number, sites: Scope, q: Partial<AnalysisResultQuery>) {
  let query = db.selectFrom('analysis_results').where('tenant_id', '=', tenantId);
  if (sites !== 'all') query = query.where('asset_id', 'in', sites.length ? sites : [-1]);
  if (q.analyser) query = query.where('analyser', '=', q.analyser);
  if (q.cameraId) query = query.where('device_id', '=', q.cameraId);
  if (q.ticketId) query = query.where('ticket_id', '=', q.ticketId);
  if (q.verdict === 'PENDING') query = query.where('verdict', 'is', null);
  else if (q.verdict) query = query.where('verdict', '=', q.verdict);
  if (q.from) query = query.where('at', '>=', new Date(q.from));
  if (q.to) query = query.where('at', '<', new Date(q.to));
  return query;
}

export async function listResults(db: Db, tenantId: number, sites: Scope, q: AnalysisResultQuery) {
  const [rows, count] = await Promise.all([
    filtered(db, tenantId, sites, q)
      .select(resultColumns)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .offset(q.offset)
      .limit(q.limit)
      .execute(),
    filtered(db, tenantId, sites, q)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}
export type ResultRow = Awaited<ReturnType<typeof listResults>>['rows'][number];

export const findResult = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('analysis_results').select(resultColumns).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

/** The oldest unverified result (after the one just answered, so a skipped item does not come back at once). */
export async function nextPending(db: Db, tenantId: number, sites: Scope, after: number | undefined) {
  const base = filtered(db, tenantId, sites, { verdict: 'PENDING' });
  const [next, waiting] = await Promise.all([
    (after ? base.where('id', '>', after) : base).select(resultColumns).orderBy('id').limit(1).executeTakeFirst(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const first = next ?? (after ? await base.select(resultColumns).orderBy('id').limit(1).executeTakeFirst() : undefined);
  return { next: first ?? null, waiting: Number(waiting.n) };
}

/** Records a verdict once: a result already verified is left as it is (null). */
export const setVerdict = (db: Db, tenantId: number, id: number, verdict: Verdict, reason: string | null, userId: number) =>
  db
    .updateTable('analysis_results')
    .set({ verdict, reason, verified_by: userId, verified_at: sql<Date>`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('verdict', 'is', null)
    .returning(['id'])
    .executeTakeFirst();

export async function summary(db: Db, tenantId: number, sites: Scope, range: { from?: string; to?: string }) {
  return filtered(db, tenantId, sites, range)
    .select((eb) => [
      'device_id',
      'analyser',
      eb.fn.countAll<number>().as('total'),
      sql<number>`count(*) filter (where verdict = 'TRUE_POSITIVE')`.as('true_positives'),
      sql<number>`count(*) filter (where verdict = 'FALSE_POSITIVE')`.as('false_positives'),
      sql<number>`count(*) filter (where verdict is null)`.as('pending'),
    ])
    .groupBy(['device_id', 'analyser'])
    .orderBy('device_id')
    .orderBy('analyser')
    .limit(5000)
    .execute();
}
