import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';

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
  const grant = async (codenames: Array<[string, string]>, holder: string) => {
    const list = JSON.stringify(codenames.map(([codename, name]) => ({ codename, name })));
    await sql`
      update groups g set permissions = g.permissions || coalesce((
        select jsonb_agg(p) from jsonb_array_elements(${list}::jsonb) p
        where not exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = p->>'codename')
      ), '[]'::jsonb)
      where exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = ${holder})
    `.execute(db);
  };
  await grant([['view_equipment', 'Can view equipment']], 'view_device');
  await grant(
    [
      ['add_equipment', 'Can add equipment'],
      ['change_equipment', 'Can change equipment'],
      ['delete_equipment', 'Can delete equipment'],
    ],
    'change_device',
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
