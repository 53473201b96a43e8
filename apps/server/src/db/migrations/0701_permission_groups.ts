import { type Kysely, sql } from 'kysely';

interface MenuItem {
  label: string;
  value: string;
  icon?: string;
  roles?: string[];
  permission?: string;
  children?: MenuItem[];
}

const PERMISSIONS_ENTRY: MenuItem = { label: 'Permissions', value: '/permissions/', icon: 'admin', permission: 'view_group' };

/**
 * Permission groups get their own permissions, held by the groups that administer users, and the /permissions/
 * screen joins the Administration entry of existing tenants' menus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update groups g set permissions = g.permissions || coalesce((
      select jsonb_agg(p) from jsonb_array_elements('[
        {"codename": "view_group", "name": "Can view group"},
        {"codename": "add_group", "name": "Can add group"},
        {"codename": "change_group", "name": "Can change group"},
        {"codename": "delete_group", "name": "Can delete group"}
      ]'::jsonb) p
      where not exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = p->>'codename')
    ), '[]'::jsonb)
    where exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = 'change_user')
  `.execute(db);
  const tenants = await sql<{ id: number; settings: { menu?: MenuItem[] } }>`select id, settings from tenants`.execute(db);
  for (const tenant of tenants.rows) {
    const menu = tenant.settings?.menu;
    const admin = menu?.find((m) => m.label === 'Administration' && Array.isArray(m.children));
    if (!admin?.children || admin.children.some((c) => c.value === PERMISSIONS_ENTRY.value)) continue;
    admin.children.push(PERMISSIONS_ENTRY);
    await sql`update tenants set settings = jsonb_set(settings, '{menu}', ${JSON.stringify(menu)}::jsonb) where id = ${tenant.id}`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`select 1`.execute(db);
}
