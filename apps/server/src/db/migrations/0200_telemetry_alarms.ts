import { type Kysely, sql } from 'kysely';

/**
 * Telemetry history partitioned by day (partitions are created ahead and dropped past retention by the telemetry
 * runtime; the default partition only catches what falls outside them), the latest value of every key, the client
 * attributes devices report, alarm rules and alarms.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table telemetry (
      tenant_id int not null,
      device_id int not null,
      key text not null,
      ts timestamptz not null,
      num double precision,
      txt text
    ) partition by range (ts);
    create index telemetry_device_key_ts_idx on telemetry (device_id, key, ts);
    create table telemetry_default partition of telemetry default;

    create table telemetry_latest (
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null references devices(id) on delete cascade,
      key text not null,
      ts timestamptz not null,
      value jsonb not null,
      primary key (device_id, key)
    );
    create index telemetry_latest_tenant_idx on telemetry_latest (tenant_id, device_id);

    create table device_attributes (
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null references devices(id) on delete cascade,
      key text not null,
      value jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (device_id, key)
    );

    create table alarm_rules (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      device_type text,
      template_id int references device_templates(id) on delete cascade,
      kind text not null check (kind in ('threshold','inactivity')),
      key text,
      operator text check (operator in ('>','>=','<','<=','==','!=')),
      threshold double precision,
      duration_seconds int not null default 0,
      severity text not null check (severity in ('WARNING','MINOR','MAJOR','CRITICAL')),
      create_ticket boolean not null default true,
      enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (device_type is not null or template_id is not null)
    );
    create index alarm_rules_tenant_idx on alarm_rules (tenant_id, enabled);

    create table alarms (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null references devices(id) on delete cascade,
      rule_id int references alarm_rules(id) on delete set null,
      rule_name text not null,
      severity text not null,
      state text not null default 'ACTIVE' check (state in ('ACTIVE','CLEARED')),
      message text not null,
      num double precision,
      txt text,
      suppressed_by text,
      ticket_id int,
      raised_at timestamptz not null default now(),
      cleared_at timestamptz
    );
    create unique index alarms_one_active_idx on alarms (device_id, rule_id) where state = 'ACTIVE';
    create index alarms_tenant_device_idx on alarms (tenant_id, device_id, raised_at desc);
    create index alarms_tenant_state_idx on alarms (tenant_id, state, raised_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table alarms, alarm_rules, device_attributes, telemetry_latest, telemetry`.execute(db);
}
