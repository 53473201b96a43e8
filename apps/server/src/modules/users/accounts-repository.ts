import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** SQL of the users table for sign-in (credentials, lockout, second factor): the auth module's view, through accounts.ts. */

export type AccountRow = Awaited<ReturnType<typeof findUserById>>;

const userColumns = [
  'id',
  'tenant_id',
  'username',
  'email',
  'firstname',
  'lastname',
  'mobile',
  'password_hash',
  'roles',
  'group_ids',
  'profile',
  'notification_config',
  'failed_logins',
  'locked_until',
  'totp_secret',
  'totp_enabled',
  'is_active',
] as const;

export const findUserById = (db: Db, tenantId: number, userId: number) =>
  db.selectFrom('users').select(userColumns).where('tenant_id', '=', tenantId).where('id', '=', userId).executeTakeFirst();

export type GroupRow = { id: number; name: string; permissions: { codename: string; name: string }[] };

/** A user with their groups, in one statement (the hot path of /current-login/). */
export const findUserWithGroups = (db: Db, tenantId: number, userId: number) =>
  db
    .selectFrom('users as u')
    .select(userColumns.map((c) => `u.${c}` as const))
    .select(
      sql<
        GroupRow[]
      >`coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name, 'permissions', g.permissions)) from groups g where g.tenant_id = u.tenant_id and g.id = any(u.group_ids)), '[]'::json)`.as(
        'groups',
      ),
    )
    .where('u.tenant_id', '=', tenantId)
    .where('u.id', '=', userId)
    .executeTakeFirst();

export const findUserByUsername = (db: Db, tenantId: number, username: string) =>
  db
    .selectFrom('users')
    .select(userColumns)
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();

export const findUserByMobile = (db: Db, tenantId: number, mobile: string) =>
  db.selectFrom('users').select(userColumns).where('tenant_id', '=', tenantId).where('mobile', '=', mobile).executeTakeFirst();

/** Counts a failed password and locks the account when the count reaches the limit. */
export const recordLoginFailure = (db: Db, tenantId: number, userId: number, maxFailures: number, lockoutMinutes: number, now: Date) =>
  db
    .updateTable('users')
    .set({
      failed_logins: sql`failed_logins + 1`,
      locked_until: sql`case when failed_logins + 1 >= ${maxFailures} then ${now}::timestamptz + make_interval(mins => ${lockoutMinutes}) else locked_until end`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .returning(['failed_logins', 'locked_until'])
    .executeTakeFirstOrThrow();

export const resetLoginFailures = (db: Db, tenantId: number, userId: number) =>
  db
    .updateTable('users')
    .set({ failed_logins: 0, locked_until: null })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .execute();

/** What sign-in and the profile may change of their own user. */
export type AccountChange = Partial<{
  firstname: string;
  lastname: string;
  email: string;
  mobile: string | null;
  notification_config: string;
  password_hash: string;
  totp_secret: string | null;
  totp_enabled: boolean;
}>;

export const updateUser = (db: Db, tenantId: number, userId: number, values: AccountChange) =>
  db
    .updateTable('users')
    .set({ ...values, updated_at: sql`now()`, ...(values.password_hash ? { password_changed_at: sql`now()` } : {}) })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .execute();
