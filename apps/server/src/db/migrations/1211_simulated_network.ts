import { type Kysely, sql } from 'kysely';

/**
 * A tenant whose devices live on a simulated network (the demo tenants): every network action on its devices
 * (diagnostics, stream probes, trap forwarding) is answered by the simulator or sent to loopback, never to the
 * addresses the devices declare. Set by the demo's seeder `simulated-network`, which also reaches existing data.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants add column simulated_network boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tenants drop column if exists simulated_network`.execute(db);
}
