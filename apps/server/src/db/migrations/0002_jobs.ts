import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table jobs (
      id bigserial primary key,
      tenant_id int references tenants(id) on delete cascade,
      queue text not null,
      payload jsonb not null default '{}',
      status text not null default 'queued' check (status in ('queued', 'running', 'completed', 'failed', 'cancelled')),
      run_at timestamptz not null default now(),
      attempts int not null default 0,
      max_attempts int not null default 5,
      locked_by text,
      locked_until timestamptz,
      progress real not null default 0,
      result jsonb,
      last_error text,
      dedupe_key text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create unique index jobs_dedupe_idx on jobs (queue, dedupe_key) where dedupe_key is not null;
    create index jobs_ready_idx on jobs (run_at) where status = 'queued';
    create index jobs_lease_idx on jobs (locked_until) where status = 'running';
    create index jobs_tenant_idx on jobs (tenant_id, queue, created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table jobs`.execute(db);
}
