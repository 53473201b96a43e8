import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';

/**
 * Inventory of spares: stores, items, serial units and the append-only stock ledger. On hand is the sum of the
 * ledger; `inventory_balances` and the serials' location are derived from it in each movement's transaction (and
 * checked against it by the tests). The inventory permissions go to the administrators' groups and the store
 * managers' groups, and /inventory-management joins existing tenants' menus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table inventory_stores (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name varchar(120) not null,
      asset_id int,
      manager_ids int[] not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index inventory_stores_name_idx on inventory_stores (tenant_id, lower(name));
    create index inventory_stores_asset_idx on inventory_stores (tenant_id, asset_id);

    create table inventory_items (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      code varchar(40) not null,
      name varchar(120) not null,
      category varchar(80) not null default '',
      make varchar(80) not null default '',
      model varchar(80) not null default '',
      unit varchar(20) not null default 'pcs',
      tracking varchar(10) not null check (tracking in ('SERIAL', 'QUANTITY')),
      low_threshold int not null default 0 check (low_threshold >= 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index inventory_items_code_idx on inventory_items (tenant_id, upper(code));
    create index inventory_items_name_idx on inventory_items (tenant_id, name, id);

    create table inventory_serials (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      item_id int not null references inventory_items(id) on delete cascade,
      serial varchar(80) not null,
      store_id int references inventory_stores(id),
      status varchar(12) not null default 'IN_STORE',
      ticket_id int,
      created_at timestamptz not null default now()
    );
    create unique index inventory_serials_serial_idx on inventory_serials (tenant_id, item_id, upper(serial));
    create index inventory_serials_store_idx on inventory_serials (tenant_id, store_id, item_id);

    create table inventory_movements (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      kind varchar(12) not null check (kind in ('RECEIVE', 'TRANSFER', 'ISSUE', 'RETURN', 'WRITE_OFF')),
      item_id int not null references inventory_items(id),
      quantity int not null check (quantity > 0),
      from_store_id int references inventory_stores(id),
      to_store_id int references inventory_stores(id),
      serial_id int references inventory_serials(id),
      ticket_id int,
      device_id int,
      note varchar(500) not null default '',
      actor_id int,
      created_at timestamptz not null default now(),
      check (from_store_id is not null or to_store_id is not null)
    );
    create index inventory_movements_item_idx on inventory_movements (tenant_id, item_id, id desc);
    create index inventory_movements_in_idx on inventory_movements (tenant_id, to_store_id, item_id) include (quantity);
    create index inventory_movements_out_idx on inventory_movements (tenant_id, from_store_id, item_id) include (quantity);
    create index inventory_movements_ticket_idx on inventory_movements (tenant_id, ticket_id) where ticket_id is not null;
    create index inventory_movements_serial_idx on inventory_movements (serial_id, id desc) where serial_id is not null;
    create or replace function inventory_movements_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'inventory_movements is append-only';
    end $$;
    create trigger inventory_movements_no_update before update on inventory_movements
      for each row execute function inventory_movements_append_only();

    create table inventory_balances (
      tenant_id int not null references tenants(id) on delete cascade,
      item_id int not null references inventory_items(id) on delete cascade,
      store_id int not null references inventory_stores(id) on delete cascade,
      on_hand int not null check (on_hand >= 0),
      primary key (tenant_id, item_id, store_id)
    );
    create index inventory_balances_store_idx on inventory_balances (tenant_id, store_id, item_id);

    update groups g set permissions = g.permissions || coalesce((
      select jsonb_agg(p) from jsonb_array_elements('[
        {"codename": "view_inventory", "name": "Can view inventory"},
        {"codename": "add_inventory", "name": "Can add inventory"},
        {"codename": "change_inventory", "name": "Can change inventory"},
        {"codename": "delete_inventory", "name": "Can delete inventory"}
      ]'::jsonb) p
      where not exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = p->>'codename')
    ), '[]'::jsonb)
    where exists (select 1 from jsonb_array_elements(g.permissions) q where q->>'codename' = 'change_user')
       or exists (select 1 from users u where u.tenant_id = g.tenant_id and g.id = any(u.group_ids) and 'storemanager' = any(u.roles));
  `.execute(db);
  await addMenuEntries(db, [
    {
      group: 'Inventory',
      item: { label: 'Inventory Management', value: '/inventory-management', icon: 'inventory', permission: 'view_inventory' },
    },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists inventory_balances;
    drop table if exists inventory_movements;
    drop function if exists inventory_movements_append_only();
    drop table if exists inventory_serials;
    drop table if exists inventory_items;
    drop table if exists inventory_stores;
  `.execute(db);
}
