import { type Kysely, sql } from 'kysely';

interface MenuItem {
  label: string;
  value: string;
  icon?: string;
  permission?: string;
  children?: MenuItem[];
}

const ENTRIES: MenuItem[] = [
  { label: 'Overview', value: '/administration', icon: 'admin' },
  { label: 'Registration Requests', value: '/registration-requests', icon: 'users', permission: 'add_user' },
  { label: 'User Activity Logs', value: '/user-activity-logs', icon: 'users', permission: 'view_user' },
];

/** The administration landing page, registration requests and the activity log join existing tenants' menus. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const tenants = await sql<{ id: number; settings: { menu?: MenuItem[] } }>`select id, settings from tenants`.execute(db);
  for (const tenant of tenants.rows) {
    const menu = tenant.settings?.menu;
    const admin = menu?.find((m) => m.label === 'Administration' && Array.isArray(m.children));
    if (!admin?.children) continue;
    const missing = ENTRIES.filter((e) => !admin.children?.some((c) => c.value === e.value));
    if (missing.length === 0) continue;
    admin.children.push(...missing);
    await sql`update tenants set settings = jsonb_set(settings, '{menu}', ${JSON.stringify(menu)}::jsonb) where id = ${tenant.id}`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`select 1`.execute(db);
}
