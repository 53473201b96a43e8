import { type Kysely, sql } from 'kysely';

/**
 * The unfinished tickets of each assignee, for the escalation's "least loaded user of a role" and for workload
 * counts: an index-only count instead of walking every ticket the user ever had.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index tickets_assigned_open_idx on tickets (tenant_id, assigned_to) where assigned_to is not null and status not in ('RESOLVED', 'CLOSED')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index tickets_assigned_open_idx`.execute(db);
}
