import { sql } from 'kysely';
import type { Db } from './db.ts';

/**
 * SQL of the user activity log that `writeAudit` appends to: filtered keyset pages for the activity-log module's screen
 * and export, and the monthly partitions' upkeep.
 */

export interface ActivityFilter {
  userId?: number;
  action?: string;
  objectType?: string;
  from?: Date;
  to?: Date;
}

const encode = (createdAt: Date, id: string) => `${createdAt.getTime()}_${id}`;
function decode(cursor: string | undefined) {
  const m = cursor ? /^(\d{1,15})_(\d{1,19})$/.exec(cursor) : null;
  return m ? { at: new Date(Number(m[1])), id: m[2] as string } : null;
}

/** Newest first; the cursor continues after the last row of the previous page. */
export async function page(db: Db, tenantId: number, f: ActivityFilter, cursor: string | undefined, limit: number) {
  let query = db
    .selectFrom('user_activity_logs')
    .select([
      'id',
      'created_at',
      'performed_at',
      'actor_id',
      'actor_name',
      'action',
      'outcome',
      'object_type',
      'object_id',
      'ip',
      'user_agent',
      'before',
      'after',
    ])
    .where('tenant_id', '=', tenantId);
  if (f.userId) query = query.where('actor_id', '=', f.userId);
  if (f.action) query = query.where('action', '=', f.action);
  if (f.objectType) query = query.where('object_type', '=', f.objectType);
  if (f.from) query = query.where('created_at', '>=', f.from);
  if (f.to) query = query.where('created_at', '<', f.to);
  const after = decode(cursor);
  if (after) query = query.where(sql<boolean>`(created_at, id) < (${after.at}, ${after.id}::bigint)`);
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  const contents = more ? rows.slice(0, limit) : rows;
  const last = contents.at(-1);
  return { rows: contents, nextCursor: more && last ? encode(last.created_at, String(last.id)) : null };
}
export type ActivityRow = Awaited<ReturnType<typeof page>>['rows'][number];

const partitionName = (month: Date) => `user_activity_logs_${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

/** Creates the partition of the month holding `day` when it does not exist yet. */
export async function ensureMonth(db: Db, day: Date) {
  const from = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const to = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1));
  await sql`
    create table if not exists ${sql.id(partitionName(from))} partition of user_activity_logs
      for values from (${sql.lit(from.toISOString())}) to (${sql.lit(to.toISOString())})`.execute(db);
}

/** Drops whole monthly partitions that ended before `before` (the longest retention any tenant may set). */
export async function dropMonthsBefore(db: Db, before: Date) {
  const parts = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname = 'user_activity_logs' and c.relname ~ '^user_activity_logs_[0-9]{6}$'`.execute(db);
  let dropped = 0;
  for (const { name } of parts.rows) {
    const y = Number(name.slice(-6, -2));
    const m = Number(name.slice(-2));
    if (new Date(Date.UTC(y, m, 1)) <= before) {
      await sql`drop table if exists ${sql.id(name)}`.execute(db);
      dropped++;
    }
  }
  return dropped;
}

/** Removes one tenant's entries older than its retention, a bounded batch at a time. */
export const deleteOlderThan = (db: Db, tenantId: number, before: Date, batch = 10_000) =>
  sql`
    delete from user_activity_logs where (id, created_at) in (
      select id, created_at from user_activity_logs where tenant_id = ${tenantId} and created_at < ${before} limit ${batch})`
    .execute(db)
    .then((r) => Number(r.numAffectedRows ?? 0));
