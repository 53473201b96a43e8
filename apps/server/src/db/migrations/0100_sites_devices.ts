import { type Kysely, sql } from 'kysely';

/**
 * Sites (assets) with their customers and user assignments; devices with their hierarchy, templates, entity
 * mappings and the log of alarm actions. The device row is also what the telemetry domain ingests into: the
 * access token authenticates a device (MQTT username / HTTP path, as ThingsBoard does) and `state` keeps the
 * last known value of each key until the telemetry tables hold the history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table customers (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      email text,
      phone text,
      address text,
      city text,
      country text,
      provision_key text not null unique,
      provision_secret text not null,
      secret_rotated_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index customers_tenant_name_idx on customers (tenant_id, lower(name));

    create table assets (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      customer_id int references customers(id) on delete set null,
      name text not null,
      address text[] not null default '{}',
      latitude double precision,
      longitude double precision,
      metadata jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index assets_tenant_name_idx on assets (tenant_id, lower(name));
    create index assets_tenant_address_idx on assets (tenant_id, address);
    create index assets_tenant_code_idx on assets (tenant_id, (metadata->>'assetCode'));
    create index assets_tenant_merchant_idx on assets (tenant_id, (metadata->>'merchantId'));
    create index assets_customer_idx on assets (tenant_id, customer_id);

    create table user_assets (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      asset_id int not null references assets(id) on delete cascade,
      created_by int,
      created_at timestamptz not null default now(),
      unique (user_id, asset_id)
    );
    create index user_assets_asset_idx on user_assets (asset_id);
    create index user_assets_tenant_user_idx on user_assets (tenant_id, user_id);

    create table device_templates (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      type text not null,
      vendor text not null,
      model text,
      description text,
      telemetry jsonb not null default '[]',
      attributes jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index device_templates_unique_idx on device_templates (tenant_id, type, lower(vendor), lower(name));

    create table devices (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      label text not null,
      type text not null check (type in ('ROUTER','DVR','CAMERA','HDD','ALARMPANEL','GENERATOR','UPS','RECTIFIER','ETH','METER','SENSOR','ACCESSCONTROL','RELAY')),
      status text not null default 'Not yet connected' check (status in ('Online','Offline','Not yet connected')),
      alarm_status text,
      alarm_updated_at timestamptz,
      last_activity_at timestamptz,
      asset_id int references assets(id) on delete set null,
      parent_id int references devices(id) on delete set null,
      is_parent boolean not null default false,
      template_id int references device_templates(id) on delete set null,
      access_token text not null unique,
      discovered boolean not null default false,
      metadata jsonb not null default '{"muteDevice": false, "maintenance": false, "enableDevice": true}',
      state jsonb not null default '{}',
      state_updated_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index devices_tenant_name_idx on devices (tenant_id, name collate "C");
    -- Counts per type and status read this index only (site summary cards, status counts).
    create index devices_counts_idx on devices (tenant_id, type, status) include (asset_id) where not discovered;
    create index devices_tenant_asset_idx on devices (tenant_id, asset_id, type, status);
    create index devices_parent_idx on devices (parent_id);
    create index devices_tenant_label_idx on devices (tenant_id, lower(label));
    create index devices_tenant_alarm_updated_idx on devices (tenant_id, alarm_updated_at);

    create table entity_mappings (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      relation_type text not null,
      from_type text not null check (from_type in ('ASSET','DEVICE')),
      from_id int not null,
      to_type text not null check (to_type in ('ASSET','DEVICE')),
      to_id int not null,
      created_by int,
      created_at timestamptz not null default now(),
      unique (tenant_id, relation_type, from_type, from_id, to_type, to_id)
    );
    create index entity_mappings_from_idx on entity_mappings (tenant_id, from_type, from_id);
    create index entity_mappings_to_idx on entity_mappings (tenant_id, to_type, to_id);

    create table device_alarm_actions (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null references devices(id) on delete cascade,
      telemetry_key text not null,
      telemetry_value boolean not null,
      update_child_device boolean not null default false,
      updated_devices int not null,
      create_ticket boolean not null default false,
      description text not null default '',
      user_id int references users(id) on delete set null,
      created_at timestamptz not null default now()
    );
    create index device_alarm_actions_device_idx on device_alarm_actions (tenant_id, device_id, created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table device_alarm_actions, entity_mappings, devices, device_templates, user_assets, assets, customers`.execute(db);
}
