import { type Kysely, sql } from 'kysely';

/**
 * When a change was done at the site, kept apart from when it reached the server (`created_at`): the phone's outbox
 * sends changes made without a connection later, with the time they were made (`X-Action-Time`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_activity_logs add column performed_at timestamptz`.execute(db);
  await sql`alter table ticket_history add column performed_at timestamptz`.execute(db);
  await sql`alter table ticket_comments add column performed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ticket_comments drop column performed_at`.execute(db);
  await sql`alter table ticket_history drop column performed_at`.execute(db);
  await sql`alter table user_activity_logs drop column performed_at`.execute(db);
}
