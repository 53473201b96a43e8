import { type Kysely, sql } from 'kysely';

/**
 * Traps are attributed to a tenant only by what the tenant controls: a v2c/v1 community of its own (random, made
 * with the tenant: a volatile column default gives every existing tenant its own too), SNMPv3 users of its own
 * (names unique in the install, keys sealed), and the relay addresses whose `snmpTrapAddress.0` it trusts.
 * `trap_stats.refused` counts traps with an unknown community or user (install-wide row 0).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tenants add column trap_community varchar(64) not null default ('sw' || replace(gen_random_uuid()::text, '-', ''));
    create unique index tenants_trap_community_idx on tenants (trap_community);
    alter table tenants add column trap_relays text[] not null default '{}';

    create table trap_users (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name varchar(64) not null,
      security_level varchar(16) not null,
      auth_protocol varchar(8) not null default 'sha',
      auth_key text,
      priv_protocol varchar(8) not null default 'aes',
      priv_key text,
      created_at timestamptz not null default now()
    );
    create unique index trap_users_name_idx on trap_users (name);
    create index trap_users_tenant_idx on trap_users (tenant_id);

    alter table trap_stats add column refused bigint not null default 0;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table trap_stats drop column if exists refused;
    drop table if exists trap_users;
    drop index if exists tenants_trap_community_idx;
    alter table tenants drop column if exists trap_relays;
    alter table tenants drop column if exists trap_community;
  `.execute(db);
}
