import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

/** SQL of permission groups: the groups table and which users have a group as their first. */

type Permission = { codename: string; name: string };

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
    .orderBy(sql`lower(g.name)`)
    .execute();
export type GroupRow = Awaited<ReturnType<typeof listGroups>>[number];

export const findGroup = (db: Db, tenantId: number, id: number) => listGroups(db, tenantId).then((rows) => rows.find((g) => g.id === id));

export const nameTaken = (db: Db, tenantId: number, name: string, exceptId?: number) =>
  db
    .selectFrom('groups')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
    .executeTakeFirst()
    .then(Boolean);

export const insertGroup = (db: Db, tenantId: number, name: string, permissions: Permission[]) =>
  db
    .insertInto('groups')
    .values({ tenant_id: tenantId, name, permissions: JSON.stringify(permissions) })
    .returning('id')
    .executeTakeFirstOrThrow()
    .then((r) => r.id);

export const updateGroup = (db: Db, tenantId: number, id: number, name: string, permissions: Permission[]) =>
  db
    .updateTable('groups')
    .set({ name, permissions: JSON.stringify(permissions) })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .execute();

export const deleteGroup = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('groups').where('tenant_id', '=', tenantId).where('id', '=', id).execute();

export const members = (db: Db, tenantId: number, groupId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'firstname', 'lastname'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`group_ids[1] = ${groupId}`)
    .orderBy(sql`lower(firstname)`)
    .orderBy('id')
    .limit(500)
    .execute();

/** Users of the tenant among the ids, with their current rights. */
export const usersWithRights = (db: Db, tenantId: number, ids: number[]) =>
  db
    .selectFrom('users as u')
    .leftJoin('groups as g', (join) => join.on(sql<boolean>`g.id = u.group_ids[1]`))
    .select(['u.id', 'u.roles', 'u.group_ids', 'g.permissions'])
    .where('u.tenant_id', '=', tenantId)
    .where('u.id', 'in', ids)
    .execute();

/** Makes the group the user's first group (the one permissions come from); other groups stay behind it. */
export const setFirstGroup = (db: Db, tenantId: number, userId: number, groupId: number) =>
  db
    .updateTable('users')
    .set({ group_ids: sql`array_prepend(${groupId}::int, array_remove(group_ids, ${groupId}::int))`, updated_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId)
    .execute();

/** The tenant's active administrators (the admin roles) with the group their rights come from. */
export const administrators = (db: Db, tenantId: number, adminRoles: readonly string[]) =>
  db
    .selectFrom('users')
    .select(['id', sql<number | null>`group_ids[1]`.as('group_id')])
    .where('tenant_id', '=', tenantId)
    .where('is_active', '=', true)
    .where(sql<boolean>`roles && ${sql.val([...adminRoles])}::text[]`)
    .execute();
