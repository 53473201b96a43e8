import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import type { RegistrationRequestsTable } from './tables.ts';

/** SQL of self-registration requests. */

const columns = [
  'id',
  'username',
  'email',
  'firstname',
  'lastname',
  'mobile',
  'status',
  'created_at',
  'confirmed_at',
  'decided_at',
  'reason',
  'user_id',
  'password_hash',
] as const;

export const insertRequest = (
  db: Db,
  r: Pick<
    RegistrationRequestsTable,
    'tenant_id' | 'username' | 'email' | 'firstname' | 'lastname' | 'mobile' | 'password_hash' | 'confirm_token_hash'
  > & {
    confirm_expires_at: Date;
  },
) => db.insertInto('registration_requests').values(r).returning('id').executeTakeFirstOrThrow();

/** An open request (not yet decided) with the same username or e-mail. */
export const openClash = (db: Db, tenantId: number, username: string, email: string) =>
  db
    .selectFrom('registration_requests')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('status', 'in', ['unconfirmed', 'pending'])
    .where(sql<boolean>`(lower(username) = lower(${username}) or lower(email) = lower(${email}))`)
    .executeTakeFirst();

export const confirm = (db: Db, tenantId: number, tokenHash: string) =>
  db
    .updateTable('registration_requests')
    .set({ status: 'pending', confirmed_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('confirm_token_hash', '=', tokenHash)
    .where('status', '=', 'unconfirmed')
    .where('confirm_expires_at', '>', sql<Date>`now()`)
    .returning('id')
    .executeTakeFirst();

export async function list(db: Db, tenantId: number, q: { status: string; page: number; limit: number }) {
  const base = db
    .selectFrom('registration_requests')
    .where('tenant_id', '=', tenantId)
    .where('status', '=', q.status as never);
  const [rows, total] = await Promise.all([
    base
      .select(columns)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type RequestRow = Awaited<ReturnType<typeof list>>['rows'][number];

export const find = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('registration_requests').select(columns).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

/** Decides a pending request once; false when it was no longer pending. */
export const decide = (
  db: Db,
  tenantId: number,
  id: number,
  d: { status: 'approved' | 'rejected'; by: number; reason?: string | null; userId?: number | null },
) =>
  db
    .updateTable('registration_requests')
    .set({ status: d.status, decided_by: d.by, decided_at: sql`now()`, reason: d.reason ?? null, user_id: d.userId ?? null })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) > 0);
