import { type Kysely, sql } from 'kysely';

/**
 * The speed (km/h) a check-in implies from the same user's previous position (their last check-in or check-out),
 * kept when the two are far enough apart for it to mean something: a speed no one travels flags the record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table attendance_records add column travel_kmh real`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table attendance_records drop column if exists travel_kmh`.execute(db);
}
