import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

export interface NewSession {
  id: string;
  tenantId: number;
  userId: number;
  cookieHash: string;
  loginRole: string;
  loginMethod: string;
  userAgent: string | null;
  ip: string | null;
  /** When it starts: its first use as far as idle time goes. */
  startedAt: Date;
  expiresAt: Date;
}

export const insertSession = (db: Db, s: NewSession) =>
  db
    .insertInto('sessions')
    .values({
      id: s.id,
      tenant_id: s.tenantId,
      user_id: s.userId,
      cookie_hash: s.cookieHash,
      login_role: s.loginRole,
      login_method: s.loginMethod,
      user_agent: s.userAgent,
      ip: s.ip,
      last_seen_at: s.startedAt,
      expires_at: s.expiresAt,
    })
    .execute();

/** The session a request names, by session id or by cookie hash (its user is read through the users module). */
export const findSession = (db: Db, tenantId: number, by: { sessionId: string } | { cookieHash: string }) => {
  let query = db
    .selectFrom('sessions as s')
    .select([
      's.id as sessionId',
      's.user_id as userId',
      's.login_role as loginRole',
      's.expires_at as expiresAt',
      's.revoked_at as revokedAt',
      's.last_seen_at as lastSeenAt',
      's.refresh_gen as refreshGen',
    ])
    .where('s.tenant_id', '=', tenantId);
  query = 'sessionId' in by ? query.where('s.id', '=', by.sessionId) : query.where('s.cookie_hash', '=', by.cookieHash);
  return query.executeTakeFirst();
};

/** Of these sessions, those not revoked, not past their expiry and used since `idleSince` at `now`. */
export const unexpiredSessions = (db: Db, sessionIds: string[], now: Date, idleSince: Date) =>
  sessionIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('sessions')
        .select(['id', 'tenant_id', 'user_id'])
        .where('id', 'in', sessionIds)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', idleSince)
        .execute();

export const touchSession = (db: Db, sessionId: string, at: Date) =>
  db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', sessionId).execute();

export const revokeSession = (db: Db, tenantId: number, sessionId: string, userId?: number) => {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  return query.executeTakeFirst().then((r) => Number(r.numUpdatedRows) > 0);
};

export const revokeOtherSessions = (db: Db, tenantId: number, userId: number, keepSessionId: string) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .execute();

/** The user's sessions not revoked and not past their expiry at `now`, most recently used first. */
export const listActiveSessions = (db: Db, tenantId: number, userId: number, now: Date) =>
  db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'user_agent', 'ip', 'login_method'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .limit(100)
    .execute();

export const revokeUserSessions = (db: Db, tenantId: number, userId: number) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();

/** The latest sign-in of each of the users. */
export const lastSignIns = (db: Db, tenantId: number, userIds: number[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('sessions')
        .select(['user_id', sql<Date>`max(created_at)`.as('at')])
        .where('tenant_id', '=', tenantId)
        .where('user_id', 'in', userIds)
        .groupBy('user_id')
        .execute();

/**
 * Moves the session to the next refresh generation if the presented one is current. Returns the new generation,
 * 'reused' when an older generation was presented (the caller ends the session), or null when there is no such
 * live session.
 */
export async function advanceRefreshGeneration(db: Db, tenantId: number, sessionId: string, gen: number) {
  const advanced = await db
    .updateTable('sessions')
    .set({ refresh_gen: sql`refresh_gen + 1` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', sessionId)
    .where('refresh_gen', '=', gen)
    .where('revoked_at', 'is', null)
    .returning('refresh_gen')
    .executeTakeFirst();
  if (advanced) return advanced.refresh_gen;
  const current = await db
    .selectFrom('sessions')
    .select('refresh_gen')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return current && current.refresh_gen > gen ? ('reused' as const) : null;
}

export const insertCaptcha = (db: Db, c: { id: string; tenantId: number; answerHash: string; expiresAt: Date }) =>
  db.insertInto('captchas').values({ id: c.id, tenant_id: c.tenantId, answer_hash: c.answerHash, expires_at: c.expiresAt }).execute();

/** Takes a captcha once, whatever the answer: a wrong guess cannot be retried on the same image. */
export const takeCaptcha = (db: Db, tenantId: number, id: string, now: Date) =>
  db
    .updateTable('captchas')
    .set({ used_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('answer_hash')
    .executeTakeFirst();

export const deleteExpiredCaptchas = (db: Db, now: Date) =>
  db
    .deleteFrom('captchas')
    .where('expires_at', '<', new Date(now.getTime() - 3600_000))
    .execute();

export const insertOtp = (db: Db, o: { tenantId: number; userId: number; codeHash: string; expiresAt: Date }) =>
  db.insertInto('otp_codes').values({ tenant_id: o.tenantId, user_id: o.userId, code_hash: o.codeHash, expires_at: o.expiresAt }).execute();

export const latestOtp = (db: Db, tenantId: number, userId: number) =>
  db
    .selectFrom('otp_codes')
    .select(['id', 'code_hash', 'attempts', 'expires_at', 'used_at'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const countOtpAttempt = (db: Db, id: number) =>
  db.updateTable('otp_codes').set({ attempts: sql`attempts + 1` }).where('id', '=', id).execute();

export const spendOtp = (db: Db, id: number) =>
  db
    .updateTable('otp_codes')
    .set({ used_at: sql`now()` })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows) === 1);

export const listOutbox = (db: Db, tenantId: number, limit: number) =>
  db
    .selectFrom('sms_outbox')
    .select(['id', 'to', 'body', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
