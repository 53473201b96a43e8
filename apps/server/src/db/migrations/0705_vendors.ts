import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * The vendors directory: vendors, the sites and issue types they serve and their user accounts; a ticket may be
 * assigned to a vendor. Groups that could add or change users get the vendor permissions, and the Vendors screen
 * joins the Administration entry of existing tenants' menus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table vendors (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      company text not null,
      contact_person text not null default '',
      email text not null default '',
      phone text not null default '',
      address text not null default '',
      notes text not null default '',
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index vendors_company_idx on vendors (tenant_id, lower(company));
    create table vendor_sites (
      tenant_id int not null references tenants(id) on delete cascade,
      vendor_id int not null references vendors(id) on delete cascade,
      asset_id int not null references assets(id) on delete cascade,
      primary key (vendor_id, asset_id)
    );
    create index vendor_sites_asset_idx on vendor_sites (tenant_id, asset_id);
    create table vendor_issue_types (
      tenant_id int not null references tenants(id) on delete cascade,
      vendor_id int not null references vendors(id) on delete cascade,
      issue_type_id int not null references issue_types(id) on delete cascade,
      primary key (vendor_id, issue_type_id)
    );
    create index vendor_issue_types_type_idx on vendor_issue_types (tenant_id, issue_type_id);
    create table vendor_users (
      tenant_id int not null references tenants(id) on delete cascade,
      vendor_id int not null references vendors(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      primary key (vendor_id, user_id),
      unique (user_id)
    );
    alter table tickets add column vendor_id int references vendors(id) on delete set null;
    create index tickets_vendor_idx on tickets (tenant_id, vendor_id) where vendor_id is not null;
  `.execute(db);
  await grantPermissions(
    db,
    [
      { codename: 'view_vendor', name: 'Can view vendor' },
      { codename: 'add_vendor', name: 'Can add vendor' },
      { codename: 'change_vendor', name: 'Can change vendor' },
      { codename: 'delete_vendor', name: 'Can delete vendor' },
    ],
    ['add_user', 'change_user'],
  );
  await addMenuEntries(db, [
    { group: 'Administration', item: { label: 'Vendors', value: '/vendors', icon: 'users', permission: 'view_vendor' } },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tickets drop column vendor_id;
    drop table vendor_users, vendor_issue_types, vendor_sites, vendors;
  `.execute(db);
}
