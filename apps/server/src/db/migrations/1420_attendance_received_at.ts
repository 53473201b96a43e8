import { type Kysely, sql } from 'kysely';

/**
 * A check-out made without a connection reaches the server later than it was done: `check_out_at` is when it was
 * done at the site (the hours count from it) and `check_out_received_at` when it arrived. A check-in keeps the same
 * pair in `check_in_at` and `created_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table attendance_records add column check_out_received_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table attendance_records drop column if exists check_out_received_at`.execute(db);
}
