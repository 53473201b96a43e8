import { type Kysely, sql } from 'kysely';

/** Each backup the product made (scheduled, started by a system administrator, or before migrations): install-wide. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table backup_runs (
      id bigserial primary key,
      reason varchar(20) not null check (reason in ('manual', 'scheduled', 'before-migrate')),
      status varchar(20) not null default 'running' check (status in ('running', 'succeeded', 'failed')),
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      name varchar(100),
      bytes bigint,
      duration_ms integer,
      verified boolean not null default false,
      with_recordings boolean not null default false,
      error varchar(1000),
      started_by bigint,
      removed boolean not null default false
    )
  `.execute(db);
  await sql`create index backup_runs_started_idx on backup_runs (started_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table backup_runs`.execute(db);
}
