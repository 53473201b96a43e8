import { type Kysely, sql } from 'kysely';

/**
 * The demo's Operators group (field executives, vendors, store managers) builds dashboards of its own but does not
 * change everyone's: as a customer would set it up, `change_dashboard` (editing dashboards others made) belongs to
 * the Administrators. Data folders made before keep the old grant; this takes it back from the demo tenants' group.
 */
const DEMO_TENANTS = ['demo', 'acme'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update groups g set permissions = coalesce((
      select jsonb_agg(p) from jsonb_array_elements(g.permissions) p where p->>'codename' <> 'change_dashboard'
    ), '[]'::jsonb)
    where g.name = 'Operators'
      and g.tenant_id in (select id from tenants where slug in (${sql.join(DEMO_TENANTS.map((s) => sql`${s}`))}))
      and exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = 'change_dashboard')
  `.execute(db);
}

export async function down(): Promise<void> {}
