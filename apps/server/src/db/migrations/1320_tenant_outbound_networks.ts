import { type Kysely, sql } from 'kysely';

/**
 * The networks a tenant's devices may be dialled in, set by the system administrator (null: the install's default,
 * OUTBOUND_NETWORKS). The demo tenants (a simulated network) get loopback only: the simulator answers for their
 * devices, and nothing meant for them may leave the machine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants add column outbound_networks text[]`.execute(db);
  await sql`update tenants set outbound_networks = '{127.0.0.0/8,::1}' where simulated_network`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants drop column if exists outbound_networks`.execute(db);
}
