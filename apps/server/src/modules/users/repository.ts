import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { contains } from '../sites/scope.ts';

/** SQL for users as other screens list them and their groups' permissions. */

const USER_ORDER = {
  firstname: sql`lower(u.firstname)`,
  lastname: sql`lower(u.lastname)`,
  username: sql`lower(u.username)`,
  email: sql`lower(u.email)`,
  createdAt: sql`u.created_at`,
  id: sql`u.id`,
} as const;

const userColumns = [
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
] as const;

export async function listUsers(
  db: Db,
  tenantId: number,
  q: { ids?: number[]; searchText?: string; role?: string; orderBy: string; page: number; limit: number; status?: string },
) {
  const where = [sql`u.tenant_id = ${tenantId}`];
  if (q.status !== 'all') where.push(q.status === 'deactivated' ? sql`not u.is_active` : sql`u.is_active`);
  if (q.ids?.length) where.push(sql`u.id = any(${q.ids}::int[])`);
  if (q.role) where.push(sql`${q.role} = any(u.roles)`);
  if (q.searchText) {
    const p = contains(q.searchText);
    where.push(sql`(u.username ilike ${p} or u.email ilike ${p} or (u.firstname || ' ' || u.lastname) ilike ${p})`);
  }
  const condition = sql<boolean>`${sql.join(where, sql` and `)}`;
  const key = q.orderBy.replace('-', '') as keyof typeof USER_ORDER;
  const [rows, total] = await Promise.all([
    db
      .selectFrom('users as u')
      .select(userColumns)
      .where(condition)
      .orderBy(USER_ORDER[key], q.orderBy.startsWith('-') ? 'desc' : 'asc')
      .orderBy('u.id')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute(),
    db.selectFrom('users as u').where(condition).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}
export type UserRow = Awaited<ReturnType<typeof listUsers>>['rows'][number];

export const findUser = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('users as u').select(userColumns).where('u.tenant_id', '=', tenantId).where('u.id', '=', id).executeTakeFirst();

export const groupsOf = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('groups').select(['id', 'name', 'permissions']).where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();

export const listGroups = (db: Db, tenantId: number) =>
  db
    .selectFrom('groups as g')
    .select([
      'g.id',
      'g.name',
      'g.permissions',
      sql<number>`(select count(*) from users u where u.tenant_id = g.tenant_id and u.group_ids[1] = g.id)::int`.as('user_count'),
    ])
    .where('g.tenant_id', '=', tenantId)
    .orderBy('g.name')
    .execute();

export const findGroup = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('groups').select(['id', 'name', 'permissions']).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const saveGroupPermissions = (db: Db, tenantId: number, id: number, permissions: { codename: string; name: string }[]) =>
  db
    .updateTable('groups')
    .set({ permissions: JSON.stringify(permissions) })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

// Reads other modules make through the user directory (directory.ts) --------------------------------------------

/** By name (first name, last name, id), as lists of people are shown. */
export const usersByIds = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('users')
        .select(['id', 'firstname', 'lastname', 'email', 'roles', 'username', 'profile', 'is_active'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', ids)
        .orderBy('firstname')
        .orderBy('lastname')
        .orderBy('id')
        .execute();

export function searchUsers(db: Db, tenantId: number, opts: { search?: string; ids?: number[]; limit: number }) {
  let q = db
    .selectFrom('users')
    .select(['id', 'firstname', 'lastname', 'email', 'roles'])
    .where('tenant_id', '=', tenantId)
    .where('is_active', '=', true);
  if (opts.ids) q = q.where('id', 'in', opts.ids.length ? opts.ids : [0]);
  if (opts.search) {
    const like = `%${opts.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) =>
      eb.or([eb('firstname', 'ilike', like), eb('lastname', 'ilike', like), eb('email', 'ilike', like), eb('username', 'ilike', like)]),
    );
  }
  return q.orderBy('firstname').orderBy('lastname').orderBy('id').limit(opts.limit).execute();
}

/** The active users among these ids, with their roles and the permissions of their first group (one statement). */
export async function activeActors(db: Db, tenantId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('groups as g', (join) => join.on(sql<boolean>`g.id = u.group_ids[1]`).onRef('g.tenant_id', '=', 'u.tenant_id'))
    .select(['u.id', 'u.roles', 'g.permissions'])
    .where('u.tenant_id', '=', tenantId)
    .where('u.id', 'in', ids)
    .where('u.is_active', '=', true)
    .execute();
  return rows.map((r) => ({ userId: r.id, tenantId, roles: r.roles, permissions: new Set((r.permissions ?? []).map((p) => p.codename)) }));
}

/** The active users holding any of the roles, by id. */
export const activeUsersWithRoles = (db: Db, tenantId: number, roles: string[]) =>
  roles.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('users')
        .select(['id', 'firstname', 'lastname', 'email', 'roles'])
        .where('tenant_id', '=', tenantId)
        .where('is_active', '=', true)
        .where(sql<boolean>`roles && ${sql.val(roles)}::text[]`)
        .orderBy('id')
        .execute();

/** A user's roles and the permissions of their first group, for work done on their behalf in the background. */
export async function actorOf(db: Db, tenantId: number, userId: number) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'roles', 'group_ids', 'is_active'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user?.is_active) return null;
  const groupId = user.group_ids[0];
  const group = groupId
    ? await db.selectFrom('groups').select('permissions').where('tenant_id', '=', tenantId).where('id', '=', groupId).executeTakeFirst()
    : undefined;
  return { userId: user.id, tenantId, roles: user.roles, permissions: new Set((group?.permissions ?? []).map((p) => p.codename)) };
}

/** The groups the user belongs to, by id. */
export async function groupIdsOf(db: Db, tenantId: number, userId: number) {
  const row = await db
    .selectFrom('users')
    .select('group_ids')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.group_ids ?? [];
}

/** The tenant's groups, id and name, by name. */
export const groupNames = (db: Db, tenantId: number) =>
  db.selectFrom('groups').select(['id', 'name']).where('tenant_id', '=', tenantId).orderBy(sql`lower(name)`).orderBy('id').execute();
