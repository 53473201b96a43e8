import { type Kysely, sql } from 'kysely';

/**
 * The latest values are rewritten every second for every busy device key: with room left in each page and no index
 * on the updated columns, PostgreSQL updates a row in place (a HOT update) instead of writing a new row version and
 * an index entry per index. The (tenant_id, device_id) index was redundant: every read names device ids, which the
 * primary key (device_id, key) serves.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table telemetry_latest set (fillfactor = 50);
    drop index telemetry_latest_tenant_idx;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index telemetry_latest_tenant_idx on telemetry_latest (tenant_id, device_id);
    alter table telemetry_latest reset (fillfactor);
  `.execute(db);
}
