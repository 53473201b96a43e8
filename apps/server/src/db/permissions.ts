import { type Kysely, sql } from 'kysely';

/** A permission a new domain brings: its codename and the label the permission screens show. */
export interface PermissionGrant {
  codename: string;
  name: string;
}

/**
 * For a migration of a new domain: gives its permissions to every existing group that holds any of the `holders`
 * codenames (e.g. the groups that change devices get `add_equipment`). A group that has a permission already keeps
 * it as it is, so the step is idempotent. New tenants get the permissions from the groups they are created with.
 */
export async function grantPermissions<DB>(
  db: Kysely<DB>,
  permissions: readonly PermissionGrant[],
  holders: readonly string[],
): Promise<void> {
  if (permissions.length === 0 || holders.length === 0) return;
  const list = JSON.stringify(permissions.map(({ codename, name }) => ({ codename, name })));
  await sql`
    update groups g set permissions = g.permissions || coalesce((
      select jsonb_agg(p) from jsonb_array_elements(${list}::jsonb) p
      where not exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = p->>'codename')
    ), '[]'::jsonb)
    where exists (
      select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' in (${sql.join(holders.map((h) => sql`${h}`))})
    )
  `.execute(db);
}
