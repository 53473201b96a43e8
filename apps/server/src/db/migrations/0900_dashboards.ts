import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * Dashboards: nested folders, dashboards on a two-breakpoint grid, reusable components, a version per save, and
 * analytics links (signed, revocable, counted). Every group that views devices views dashboards; groups that raise
 * tickets build their own; groups that change devices delete and share them. /dashboards joins existing menus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dashboard_folders (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name varchar(120) not null,
      parent_id int references dashboard_folders(id) on delete restrict,
      idx int not null default 0,
      config jsonb not null default '{}'::jsonb,
      created_by int,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index dashboard_folders_parent_idx on dashboard_folders (tenant_id, parent_id, idx);
    create table dashboards (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name varchar(120) not null,
      folder_id int references dashboard_folders(id) on delete restrict,
      idx int not null default 0,
      type varchar(20) not null default 'DASHBOARD',
      config jsonb not null default '{}'::jsonb,
      layouts jsonb not null default '{}'::jsonb,
      widgets jsonb not null default '[]'::jsonb,
      version int not null default 1,
      created_by int,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index dashboards_folder_idx on dashboards (tenant_id, folder_id, idx);
    create table dashboard_components (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name varchar(120) not null,
      widget jsonb not null,
      size jsonb not null default '{"w":4,"h":4}'::jsonb,
      created_by int,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index dashboard_components_tenant_idx on dashboard_components (tenant_id, name);
    create table dashboard_versions (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      dashboard_id int not null references dashboards(id) on delete cascade,
      version int not null,
      name varchar(120) not null,
      note varchar(120) not null default '',
      config jsonb not null,
      layouts jsonb not null,
      widgets jsonb not null,
      restored_from int,
      created_by int,
      created_at timestamptz not null default now(),
      unique (dashboard_id, version)
    );
    create table analytics_links (
      id uuid primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      dashboard_id int not null references dashboards(id) on delete cascade,
      label varchar(120) not null,
      rls_conditions jsonb not null default '[]'::jsonb,
      expires_at timestamptz not null,
      kid varchar(40) not null,
      view_count int not null default 0,
      last_viewed_at timestamptz,
      revoked_at timestamptz,
      revoked_by int,
      created_by int not null,
      created_at timestamptz not null default now()
    );
    create index analytics_links_tenant_idx on analytics_links (tenant_id, dashboard_id, created_at desc);
  `.execute(db);
  await grantPermissions(db, [{ codename: 'view_dashboard', name: 'Can view dashboard' }], ['view_device']);
  await grantPermissions(
    db,
    [
      { codename: 'add_dashboard', name: 'Can add dashboard' },
      { codename: 'change_dashboard', name: 'Can change dashboard' },
    ],
    ['add_ticket', 'change_device'],
  );
  await grantPermissions(
    db,
    [
      { codename: 'delete_dashboard', name: 'Can delete dashboard' },
      { codename: 'share_dashboard', name: 'Can share analytics dashboard' },
    ],
    ['change_device'],
  );
  await addMenuEntries(db, [
    {
      group: 'Dashboards',
      groupIcon: 'dashboards',
      item: {
        label: 'Dashboards',
        value: '/dashboards',
        icon: 'dashboards',
        permission: 'view_dashboard',
        childUrls: ['/dashboards/', '/folder/'],
        settings: { refreshInterval: 50 },
      },
    },
    {
      group: 'Dashboards',
      groupIcon: 'dashboards',
      item: { label: 'Analytics Report', value: '/analytics-report', icon: 'summary', permission: 'view_dashboard' },
    },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists analytics_links, dashboard_versions, dashboard_components, dashboards, dashboard_folders`.execute(db);
}
