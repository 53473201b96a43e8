import { type Kysely, sql } from 'kysely';

/**
 * Tenant-wide alarm rules get a permission of their own (held by administrators), apart from edit_alarm_config:
 * the groups that manage users and devices (the administrators' groups) receive it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update groups
    set permissions = permissions || '[{"codename": "manage_alarm_rules", "name": "Can manage alarm rules"}]'::jsonb
    where permissions @> '[{"codename": "change_user"}]'::jsonb
      and permissions @> '[{"codename": "change_device"}]'::jsonb
      and not permissions @> '[{"codename": "manage_alarm_rules"}]'::jsonb
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    update groups
    set permissions = coalesce(
      (select jsonb_agg(p) from jsonb_array_elements(permissions) p where p->>'codename' <> 'manage_alarm_rules'),
      '[]'::jsonb)
  `.execute(db);
}
