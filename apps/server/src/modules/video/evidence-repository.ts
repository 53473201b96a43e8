import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** SQL of the video evidence on tickets (`video_evidence`). */

export interface NewEvidence {
  tenant_id: number;
  ticket_id: number;
  ticket_no: string;
  device_id: number;
  source: 'alarm' | 'analysis';
  source_id: number | null;
  event_at: Date;
  from_at: Date;
  to_at: Date;
}

/** Inserts the clip unless the same one is on the ticket already; its id, or null when it was there. */
export const insertEvidence = async (db: Db, row: NewEvidence) =>
  (
    await db
      .insertInto('video_evidence')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'ticket_id', 'device_id', 'source', 'source_id']).doNothing())
      .returning('id')
      .executeTakeFirst()
  )?.id ?? null;

export const countOnTicket = async (db: Db, tenantId: number, ticketId: number) =>
  Number(
    (
      await db
        .selectFrom('video_evidence')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('ticket_id', '=', ticketId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const columns = [
  'id',
  'tenant_id',
  'ticket_id',
  'ticket_no',
  'device_id',
  'source',
  'event_at',
  'from_at',
  'to_at',
  'status',
  'bytes',
  'pinned',
] as const;

export const findEvidence = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('video_evidence').select(columns).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
export type EvidenceRow = NonNullable<Awaited<ReturnType<typeof findEvidence>>>;

export const evidenceOfTicket = (db: Db, tenantId: number, ticketId: number) =>
  db
    .selectFrom('video_evidence')
    .select(columns)
    .where('tenant_id', '=', tenantId)
    .where('ticket_id', '=', ticketId)
    .orderBy('event_at', 'desc')
    .orderBy('id')
    .limit(200)
    .execute();

export const setEvidenceStatus = (db: Db, tenantId: number, id: number, status: 'ready' | 'failed', bytes: number | null) =>
  db.updateTable('video_evidence').set({ status, bytes }).where('tenant_id', '=', tenantId).where('id', '=', id).execute();

/** Pins (open ticket) or unpins (resolved or closed) every clip of the ticket; the ids whose pin changed. */
export const setPinned = async (db: Db, tenantId: number, ticketId: number, pinned: boolean) =>
  (
    await db
      .updateTable('video_evidence')
      .set({ pinned })
      .where('tenant_id', '=', tenantId)
      .where('ticket_id', '=', ticketId)
      .where('pinned', '=', !pinned)
      .returning('id')
      .execute()
  ).map((r) => r.id);

/** The tickets whose clips pin footage now. */
export const pinnedTickets = (db: Db) =>
  db.selectFrom('video_evidence').select(['tenant_id', 'ticket_id']).distinct().where('pinned', '=', true).limit(5000).execute();

/** Unpinned clips made before the cutoff (their ticket is done and the footage's normal retention has passed). */
export const unpinnedBefore = (db: Db, cutoff: Date, limit: number) =>
  db
    .selectFrom('video_evidence')
    .select(['id', 'tenant_id'])
    .where('pinned', '=', false)
    .where('to_at', '<', cutoff)
    .orderBy('id')
    .limit(limit)
    .execute();

export const deleteEvidenceRows = (db: Db, ids: number[]) =>
  ids.length ? db.deleteFrom('video_evidence').where('id', 'in', ids).execute() : Promise.resolve([]);

/** For retention's segment queries: the segment `s` lies in no pinned clip's window of its camera. */
export const notPinned = sql<boolean>`not exists (
  select 1 from video_evidence e
  where e.tenant_id = video_segments.tenant_id and e.device_id = video_segments.device_id and e.pinned
    and e.from_at < video_segments.end_at and e.to_at > video_segments.start_at)`;
