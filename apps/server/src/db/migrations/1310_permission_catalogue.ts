import { type Kysely, sql } from 'kysely';
import { grantPermissions } from '../permissions.ts';

/**
 * The permission catalogue becomes the set of codenames the code checks. The forms and alarm-rule permissions, held
 * by administrators but missing from the catalogue (so once removed they could never be given again), go back to the
 * groups that administer users; `delete_ticket`, which nothing checks, leaves every group so a group can be saved
 * with the rights it holds.
 */
const RESTORED = [
  { codename: 'change_form_template', name: 'Can build forms' },
  { codename: 'view_form_response', name: 'Can view form responses' },
  { codename: 'manage_alarm_rules', name: 'Can manage alarm rules' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await grantPermissions(db, RESTORED, ['change_user']);
  await sql`
    update groups g set permissions = coalesce(
      (select jsonb_agg(p) from jsonb_array_elements(g.permissions) p where p->>'codename' <> 'delete_ticket'),
      '[]'::jsonb)
    where g.permissions @> '[{"codename": "delete_ticket"}]'::jsonb
  `.execute(db);
}

export async function down(): Promise<void> {
  // The restored rights stay: taking them back would take them from groups that held them before.
}
