import { type Kysely, sql } from 'kysely';

/**
 * When a form was submitted at the site, kept apart from when the response reached the server (`created_at`): a form
 * filled without a connection is sent later from the phone's outbox with the time it was submitted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table form_responses add column performed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table form_responses drop column if exists performed_at`.execute(db);
}
