import { type Kysely, sql } from 'kysely';

/**
 * The user activity log: append-only, partitioned by month on created_at. Partitions for the months around now
 * exist from the start; the activity-log module keeps creating the coming ones and drops the expired ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_activity_logs (
      id bigint generated always as identity,
      tenant_id int not null,
      created_at timestamptz not null default now(),
      actor_id int,
      actor_name text,
      action text not null,
      outcome text not null,
      object_type text,
      object_id text,
      ip text,
      user_agent text,
      before jsonb,
      after jsonb,
      detail jsonb not null default '{}',
      primary key (id, created_at)
    ) partition by range (created_at);
    create table user_activity_logs_default partition of user_activity_logs default;
    create index user_activity_logs_actor_idx on user_activity_logs (tenant_id, actor_id, action, created_at desc);
    create index user_activity_logs_time_idx on user_activity_logs (tenant_id, created_at desc);
    create index user_activity_logs_object_idx on user_activity_logs (tenant_id, object_type, object_id, created_at desc);
    create or replace function user_activity_logs_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'user_activity_logs is append-only';
    end $$;
    create trigger user_activity_logs_no_update before update on user_activity_logs
      for each row execute function user_activity_logs_append_only();
  `.execute(db);
  // The months around now; later months are added by the module's daily upkeep.
  const now = new Date();
  for (let offset = -1; offset <= 2; offset++)
    await ensureMonth(db, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)));
}

export async function ensureMonth(db: Kysely<unknown>, month: Date) {
  const from = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1));
  const to = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
  const name = `user_activity_logs_${from.getUTCFullYear()}${String(from.getUTCMonth() + 1).padStart(2, '0')}`;
  await sql`
    create table if not exists ${sql.id(name)} partition of user_activity_logs
      for values from (${sql.lit(from.toISOString())}) to (${sql.lit(to.toISOString())})`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table user_activity_logs; drop function user_activity_logs_append_only()`.execute(db);
}
