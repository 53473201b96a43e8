import { type Kysely, sql } from 'kysely';

/**
 * Threshold rules whose condition holds but whose duration has not passed yet: since when, and the value that
 * started it. Kept in the database so that a restart does not restart the duration (docs/alarms.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table alarm_pending (
      device_id int not null references devices(id) on delete cascade,
      rule_id int not null references alarm_rules(id) on delete cascade,
      tenant_id int not null references tenants(id) on delete cascade,
      since timestamptz not null,
      value jsonb,
      primary key (device_id, rule_id)
    );
    create index alarm_pending_rule_idx on alarm_pending (rule_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table alarm_pending`.execute(db);
}
