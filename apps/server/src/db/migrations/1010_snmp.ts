import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * SNMP traps: forwarding destinations (secrets sealed with the install's key), filters naming destinations, OID →
 * alarm mappings per tenant, unmatched traps aggregated per source and trap OID, receiver counters and the last
 * forwarding failures. Alarms raised by a trap keep the trap (`alarms.raw`) under a key of their own (`source_key`):
 * one active alarm per device and key, as rules have one per device and rule.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table trap_destinations (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name varchar(120) not null,
      host varchar(253) not null,
      port int not null default 162,
      version varchar(4) not null,
      mode varchar(8) not null default 'trap',
      community text,
      user_name varchar(64) not null default '',
      security_level varchar(16) not null default 'noAuthNoPriv',
      auth_protocol varchar(8) not null default 'sha',
      auth_key text,
      priv_protocol varchar(8) not null default 'aes',
      priv_key text,
      enabled boolean not null default true,
      sent bigint not null default 0,
      failed bigint not null default 0,
      dropped bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index trap_destinations_tenant_idx on trap_destinations (tenant_id, id);

    create table trap_filters (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name varchar(120) not null,
      oid_prefix varchar(256) not null default '',
      varbind_oid varchar(256),
      varbind_value varchar(256),
      device_id int,
      asset_id int,
      min_severity varchar(16),
      destination_ids int[] not null default '{}',
      enabled boolean not null default true,
      matched bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index trap_filters_tenant_idx on trap_filters (tenant_id, id);

    create table trap_mappings (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name varchar(120) not null,
      trap_oid varchar(256) not null,
      action varchar(8) not null,
      alarm_key varchar(80) not null,
      instance_oid varchar(256),
      severity varchar(16) not null default 'MAJOR',
      create_ticket boolean not null default false,
      device_type varchar(40),
      enabled boolean not null default true,
      created_at timestamptz not null default now()
    );
    create index trap_mappings_tenant_idx on trap_mappings (tenant_id, trap_oid);

    create table trap_unmatched (
      id bigserial primary key,
      tenant_id int references tenants(id) on delete cascade,
      source varchar(64) not null,
      version varchar(4) not null,
      trap_oid varchar(256) not null,
      reason varchar(16) not null,
      device_id int,
      count bigint not null default 1,
      first_seen timestamptz not null default now(),
      last_seen timestamptz not null default now(),
      varbinds jsonb not null default '[]'
    );
    create unique index trap_unmatched_key_idx on trap_unmatched (coalesce(tenant_id, 0), source, trap_oid);
    create index trap_unmatched_recent_idx on trap_unmatched (tenant_id, last_seen desc);

    create table trap_stats (
      tenant_id int not null,
      received bigint not null default 0,
      matched bigint not null default 0,
      unmatched bigint not null default 0,
      deduped bigint not null default 0,
      rate_limited bigint not null default 0,
      alarms bigint not null default 0,
      forwarded bigint not null default 0,
      primary key (tenant_id)
    );

    create table trap_forward_failures (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      destination_id int not null references trap_destinations(id) on delete cascade,
      at timestamptz not null default now(),
      trap_oid varchar(256) not null,
      error varchar(200) not null
    );
    create index trap_forward_failures_dest_idx on trap_forward_failures (destination_id, at desc);

    create index devices_ip_address_idx on devices ((metadata->>'ipAddress')) where metadata ? 'ipAddress';

    alter table alarms add column source_key varchar(200);
    alter table alarms add column raw jsonb;
    create unique index alarms_one_active_source_idx on alarms (device_id, source_key) where state = 'ACTIVE' and source_key is not null;
  `.execute(db);
  await grantPermissions(
    db,
    [
      { codename: 'view_trap_destination', name: 'Can view trap destination' },
      { codename: 'add_trap_destination', name: 'Can add trap destination' },
      { codename: 'change_trap_destination', name: 'Can change trap destination' },
      { codename: 'delete_trap_destination', name: 'Can delete trap destination' },
      { codename: 'view_trap_filter', name: 'Can view trap filter' },
      { codename: 'add_trap_filter', name: 'Can add trap filter' },
      { codename: 'change_trap_filter', name: 'Can change trap filter' },
      { codename: 'delete_trap_filter', name: 'Can delete trap filter' },
    ],
    ['change_device'],
  );
  await addMenuEntries(db, [
    {
      group: 'Inventory',
      item: { label: 'Trap Destinations', value: '/trapforward/destinations', icon: 'devices', permission: 'view_trap_destination' },
    },
    {
      group: 'Inventory',
      item: { label: 'Trap Filters', value: '/trapforward/filters', icon: 'devices', permission: 'view_trap_filter' },
    },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index if exists alarms_one_active_source_idx;
    drop index if exists devices_ip_address_idx;
    alter table alarms drop column if exists raw;
    alter table alarms drop column if exists source_key;
    drop table if exists trap_forward_failures, trap_stats, trap_unmatched, trap_mappings, trap_filters, trap_destinations;
  `.execute(db);
}
