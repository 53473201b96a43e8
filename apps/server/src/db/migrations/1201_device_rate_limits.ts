import { type Kysely, sql } from 'kysely';

/**
 * A tenant's own rate limits of device input (`{ deviceMessages?, deviceBytes?, tenantMessages?, tenantBytes? }`,
 * ThingsBoard-style `capacity:seconds` texts); null, or a key left out, takes the server's defaults. Set by the
 * system administrator, not part of the settings a tenant's admin edits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants add column device_rate_limits jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants drop column device_rate_limits`.execute(db);
}
