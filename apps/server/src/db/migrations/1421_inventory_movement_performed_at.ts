import { type Kysely, sql } from 'kysely';

/**
 * When a stock move was done at the site, kept apart from when it reached the server (`created_at`): a spare issued
 * to a ticket without a connection is sent later from the phone's outbox with the time it was issued.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inventory_movements add column performed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inventory_movements drop column if exists performed_at`.execute(db);
}
