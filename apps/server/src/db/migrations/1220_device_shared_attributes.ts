import { type Kysely, sql } from 'kysely';

/**
 * Shared attributes (ThingsBoard's SHARED_SCOPE): values users set for a device and the device reads (on request,
 * or pushed on change). Client attributes stay in `device_attributes`, written by the device.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table device_shared_attributes (
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null references devices(id) on delete cascade,
      key varchar(64) not null,
      value jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (device_id, key)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists device_shared_attributes`.execute(db);
}
