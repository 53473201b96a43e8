import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** SQL of user administration: the users table's writes, set-password tokens and a user's recent activity. */

export const adminUserColumns = [
  'u.id',
  'u.username',
  'u.email',
  'u.firstname',
  'u.lastname',
  'u.mobile',
  'u.roles',
  'u.group_ids',
  'u.profile',
  'u.notification_config',
  'u.totp_enabled',
  'u.is_active',
  'u.created_at',
] as const;

export const findAdminUser = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('users as u').select(adminUserColumns).where('u.tenant_id', '=', tenantId).where('u.id', '=', id).executeTakeFirst();
export type AdminUserRow = NonNullable<Awaited<ReturnType<typeof findAdminUser>>>;

/** Names only, for pickers of callers who may not read users in full. */
export async function listUserNames(
  db: Db,
  tenantId: number,
  q: { ids?: number[]; searchText?: string; role?: string; page: number; limit: number },
  contains: (text: string) => string,
) {
  let query = db.selectFrom('users as u').where('u.tenant_id', '=', tenantId).where('u.is_active', '=', true);
  if (q.ids?.length) query = query.where('u.id', 'in', q.ids);
  if (q.role) query = query.where(sql<boolean>`${q.role} = any(u.roles)`);
  if (q.searchText) {
    const p = contains(q.searchText);
    query = query.where(sql<boolean>`(u.username ilike ${p} or (u.firstname || ' ' || u.lastname) ilike ${p})`);
  }
  const [rows, total] = await Promise.all([
    query
      .select(['u.id', 'u.username', 'u.firstname', 'u.lastname'])
      .orderBy(sql`lower(u.firstname)`)
      .orderBy('u.id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** Users' rows by id, in one query. */
export const findAdminUsers = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('users as u').select(adminUserColumns).where('u.tenant_id', '=', tenantId).where('u.id', 'in', ids).execute();

/** Active users of the tenant holding any of the roles (for the last-administrator rule). */
export const countActiveWithRoles = (db: Db, tenantId: number, roles: readonly string[]) =>
  db
    .selectFrom('users')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('is_active', '=', true)
    .where(sql<boolean>`roles && ${sql.val([...roles])}::text[]`)
    .executeTakeFirstOrThrow()
    .then((r) => r.n);

export const groupsById = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('groups').select(['id', 'name', 'permissions']).where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();

export const allGroups = (db: Db, tenantId: number) =>
  db.selectFrom('groups').select(['id', 'name', 'permissions']).where('tenant_id', '=', tenantId).orderBy('name').execute();

/** The usernames and e-mails (lower case) and mobile numbers among these that users of the tenant already have. */
export async function takenIdentities(db: Db, tenantId: number, v: { usernames: string[]; emails: string[]; mobiles: string[] }) {
  const lower = (xs: string[]) => [...new Set(xs.map((x) => x.toLowerCase()))];
  const [usernames, emails, mobiles] = [lower(v.usernames), lower(v.emails), [...new Set(v.mobiles)]];
  const rows =
    usernames.length + emails.length + mobiles.length === 0
      ? []
      : await db
          .selectFrom('users')
          .select([sql<string>`lower(username)`.as('username'), sql<string>`lower(email)`.as('email'), 'mobile'])
          .where('tenant_id', '=', tenantId)
          .where((eb) =>
            eb.or([
              ...(usernames.length ? [eb(sql`lower(username)`, 'in', usernames)] : []),
              ...(emails.length ? [eb(sql`lower(email)`, 'in', emails)] : []),
              ...(mobiles.length ? [eb('mobile', 'in', mobiles)] : []),
            ]),
          )
          .execute();
  return {
    usernames: new Set(rows.map((r) => r.username)),
    emails: new Set(rows.map((r) => r.email)),
    mobiles: new Set(rows.map((r) => r.mobile).filter((m): m is string => m !== null)),
  };
}

/** Another user of the tenant with the same username, e-mail or mobile number. */
export const findClash = (db: Db, tenantId: number, u: { username: string; email: string; mobile: string | null }, exceptId?: number) =>
  db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['email']), '=', u.email.toLowerCase()),
        eb(eb.fn('lower', ['username']), '=', u.username.toLowerCase()),
        ...(u.mobile ? [eb('mobile', '=', u.mobile)] : []),
      ]),
    )
    .executeTakeFirst();

export interface UserWrite {
  username: string;
  email: string;
  firstname: string;
  lastname: string;
  mobile: string | null;
  roles: string[];
  groupIds: number[];
  notificationConfig: { popup: boolean };
}

export const insertUser = (db: Db, tenantId: number, u: UserWrite & { passwordHash: string }) =>
  db
    .insertInto('users')
    .values({
      tenant_id: tenantId,
      username: u.username,
      email: u.email,
      firstname: u.firstname,
      lastname: u.lastname,
      mobile: u.mobile,
      password_hash: u.passwordHash,
      roles: u.roles,
      group_ids: u.groupIds,
      profile: JSON.stringify({}),
      notification_config: JSON.stringify(u.notificationConfig),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

export const updateUser = (db: Db, tenantId: number, id: number, u: UserWrite) =>
  db
    .updateTable('users')
    .set({
      username: u.username,
      email: u.email,
      firstname: u.firstname,
      lastname: u.lastname,
      mobile: u.mobile,
      roles: u.roles,
      group_ids: u.groupIds,
      notification_config: JSON.stringify(u.notificationConfig),
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export const setActive = (db: Db, tenantId: number, id: number, active: boolean) =>
  db
    .updateTable('users')
    .set({ is_active: active, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export const deleteUser = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('users').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const setPasswordHash = (db: Db, tenantId: number, id: number, hash: string) =>
  db
    .updateTable('users')
    .set({ password_hash: hash, password_changed_at: sql`now()`, failed_logins: 0, locked_until: null, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export const setAvatar = (db: Db, tenantId: number, id: number, avatar: string | null) =>
  db
    .updateTable('users')
    .set({ profile: sql`profile || jsonb_build_object('avatar', ${avatar}::text)`, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export const insertPasswordToken = (db: Db, t: { tenantId: number; userId: number; tokenHash: string; expiresAt: Date }) =>
  db
    .insertInto('password_tokens')
    .values({ tenant_id: t.tenantId, user_id: t.userId, token_hash: t.tokenHash, expires_at: t.expiresAt })
    .execute();

/** Spends a live token once; returns its user, or nothing when the token is unknown, used or expired. */
export const spendPasswordToken = (db: Db, tenantId: number, tokenHash: string) =>
  db
    .updateTable('password_tokens')
    .set({ used_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();

export const recentActivity = (db: Db, tenantId: number, userId: number, limit: number) =>
  db
    .selectFrom('audit_log')
    .select(['id', 'action', 'outcome', 'ip', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

export const listMailOutbox = (db: Db, tenantId: number, limit: number) =>
  db
    .selectFrom('mail_outbox')
    .select(['id', 'to', 'subject', 'body', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();

/** Display names of users of the tenant (the activity log names who did what). */
export const namesOf = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve(new Map<number, string>())
    : db
        .selectFrom('users')
        .select(['id', 'firstname', 'lastname', 'username'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .execute()
        .then((rows) => new Map(rows.map((r) => [r.id, `${r.firstname} ${r.lastname}`.trim() || r.username])));
