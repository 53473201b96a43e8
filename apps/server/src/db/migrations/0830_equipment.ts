import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * Equipment: the physical plant at each site (serial unique per tenant), optionally linked to the device that
 * reports its telemetry. Every group that views devices views equipment; the groups that change devices manage it.
 * /asset-management and /equipments join existing tenants' menus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table equipment (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      asset_id int not null,
      name varchar(120) not null,
      category varchar(40) not null,
      make varchar(80) not null default '',
      model varchar(80) not null default '',
      serial varchar(80) not null,
      install_date date,
      warranty_until date,
      device_id int,
      notes varchar(2000) not null default '',
      status varchar(20) not null default 'ACTIVE',
      created_by int,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index equipment_serial_idx on equipment (tenant_id, lower(serial));
    create index equipment_site_idx on equipment (tenant_id, asset_id);
    create index equipment_device_idx on equipment (tenant_id, device_id) where device_id is not null;
    create index equipment_warranty_idx on equipment (tenant_id, warranty_until);
  `.execute(db);
  await grantPermissions(db, [{ codename: 'view_equipment', name: 'Can view equipment' }], ['view_device']);
  await grantPermissions(
    db,
    [
      { codename: 'add_equipment', name: 'Can add equipment' },
      { codename: 'change_equipment', name: 'Can change equipment' },
      { codename: 'delete_equipment', name: 'Can delete equipment' },
    ],
    ['change_device'],
  );
  await addMenuEntries(db, [
    {
      group: 'Inventory',
      item: { label: 'Asset Management', value: '/asset-management', icon: 'inventory', permission: 'view_equipment' },
    },
    {
      group: 'Inventory',
      item: { label: 'Equipments', value: '/equipments', icon: 'devices', permission: 'view_equipment', childUrls: ['/equipments/'] },
    },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists equipment`.execute(db);
}
