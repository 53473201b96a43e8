import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * Clusters: named groups of sites with their city lead, area head and regional head. Groups that can add or change
 * users get the cluster permissions, and /cluster-view joins the Administration menu.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table clusters (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      description text,
      city_lead_id int references users(id) on delete set null,
      area_head_id int references users(id) on delete set null,
      regional_head_id int references users(id) on delete set null,
      created_by int references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index clusters_name_idx on clusters (tenant_id, lower(name));
    create table cluster_sites (
      tenant_id int not null references tenants(id) on delete cascade,
      cluster_id int not null references clusters(id) on delete cascade,
      asset_id int not null references assets(id) on delete cascade,
      primary key (cluster_id, asset_id)
    );
    create index cluster_sites_asset_idx on cluster_sites (tenant_id, asset_id);
  `.execute(db);
  await grantPermissions(
    db,
    [
      { codename: 'view_cluster', name: 'Can view cluster' },
      { codename: 'add_cluster', name: 'Can add cluster' },
      { codename: 'change_cluster', name: 'Can change cluster' },
      { codename: 'delete_cluster', name: 'Can delete cluster' },
    ],
    ['add_user', 'change_user'],
  );
  await addMenuEntries(db, [
    { group: 'Administration', item: { label: 'Clusters', value: '/cluster-view', icon: 'admin', permission: 'view_cluster' } },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists cluster_sites; drop table if exists clusters`.execute(db);
}
