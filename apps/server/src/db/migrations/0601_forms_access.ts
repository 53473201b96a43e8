import { type Kysely, sql } from 'kysely';

const FORMS_MENU = {
  label: 'Forms',
  value: '',
  icon: 'forms',
  children: [
    { label: 'Forms', value: '/forms', icon: 'forms', childUrls: ['/forms/', '/form/'] },
    { label: 'Form Builder', value: '/form-builder', icon: 'forms', permission: 'change_form_template', childUrls: ['/forms/builder'] },
  ],
};
const PERMISSIONS = [
  { codename: 'change_form_template', name: 'Can build forms' },
  { codename: 'view_form_response', name: 'Can view form responses' },
];

/**
 * Existing tenants get the forms permissions in the groups that manage users (their administrators) and the
 * Forms entries in their menu, once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update groups set permissions = permissions || ${JSON.stringify(PERMISSIONS)}::jsonb
    where permissions @> '[{"codename": "add_user"}]'::jsonb
      and not permissions @> '[{"codename": "change_form_template"}]'::jsonb
  `.execute(db);
  await sql`
    update tenants set settings = jsonb_set(settings, '{menu}', (settings->'menu') || ${JSON.stringify([FORMS_MENU])}::jsonb)
    where jsonb_typeof(settings->'menu') = 'array'
      and not exists (select 1 from jsonb_array_elements(settings->'menu') m where m->>'label' = 'Forms')
  `.execute(db);
}

export async function down(): Promise<void> {}
