import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db.ts';
import type { ExportScope, ExportSource } from '../downloads/registry.ts';

const ADMIN_ROLES = ['sysadmin', 'customeradmin', 'localadmin'];
export const isUserAdmin = (scope: ExportScope) =>
  scope.roles.some((r) => ADMIN_ROLES.includes(r)) || scope.permissions.includes('change_user');

const params = z.strictObject({
  active: z.boolean().optional(),
  search: z.string().trim().max(100).optional(),
});
type Params = z.infer<typeof params>;

function filtered(db: Db, tenantId: number, p: Params) {
  let query = db.selectFrom('users').where('tenant_id', '=', tenantId);
  if (p.active !== undefined) query = query.where('is_active', '=', p.active);
  if (p.search) {
    const like = `%${p.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([eb('username', 'ilike', like), eb('email', 'ilike', like), eb(sql<string>`firstname || ' ' || lastname`, 'ilike', like)]),
    );
  }
  return query;
}

/** The users of the tenant, for administrators. */
export function usersSource(db: Db): ExportSource<Params> {
  return {
    kind: 'users',
    label: 'Users',
    params,
    columns: [
      { key: 'id', header: 'ID', type: 'integer' },
      { key: 'username', header: 'Username', type: 'text' },
      { key: 'firstname', header: 'First Name', type: 'text' },
      { key: 'lastname', header: 'Last Name', type: 'text' },
      { key: 'email', header: 'Email', type: 'text' },
      { key: 'mobile', header: 'Mobile', type: 'text' },
      { key: 'roles', header: 'Roles', type: 'text' },
      { key: 'is_active', header: 'Active', type: 'boolean' },
      { key: 'created_at', header: 'Created At', type: 'datetime' },
    ],
    allowed: isUserAdmin,
    async count(scope, p) {
      const row = await filtered(db, scope.tenantId, p)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async fetchPage(scope, p, cursor, limit) {
      let query = filtered(db, scope.tenantId, p).select([
        'id',
        'username',
        'firstname',
        'lastname',
        'email',
        'mobile',
        'roles',
        'is_active',
        'created_at',
      ]);
      if (cursor) query = query.where('id', '>', Number(cursor));
      const rows = await query.orderBy('id').limit(limit).execute();
      const last = rows.at(-1);
      return { rows, nextCursor: rows.length === limit && last ? String(last.id) : null };
    },
  };
}
