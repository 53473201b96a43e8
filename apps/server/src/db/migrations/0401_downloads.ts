import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table download_jobs (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      kind text not null,
      name text not null,
      params jsonb not null default '{}',
      scope jsonb not null default '{}',
      queue_job_id bigint,
      status text not null default 'starting'
        check (status in ('starting', 'processing', 'ready-to-download', 'completed', 'failed')),
      error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      finished_at timestamptz,
      expires_at timestamptz
    );
    create index download_jobs_owner_idx on download_jobs (tenant_id, user_id, created_at desc, id desc);
    create index download_jobs_expiry_idx on download_jobs (expires_at) where expires_at is not null;
    create index download_jobs_open_idx on download_jobs (updated_at) where status in ('starting', 'processing');
    create table download_tasks (
      id bigserial primary key,
      tid uuid not null unique default gen_random_uuid(),
      tenant_id int not null references tenants(id) on delete cascade,
      job_id bigint not null references download_jobs(id) on delete cascade,
      name text not null,
      camera_label text,
      description text not null default '',
      status text not null default 'starting'
        check (status in ('starting', 'processing', 'ready-to-download', 'completed', 'failed', 'error')),
      progress real not null default 0,
      rows int not null default 0,
      blob_key text,
      content_type text,
      size bigint,
      is_read boolean not null default false,
      updated_at timestamptz not null default now()
    );
    create index download_tasks_job_idx on download_tasks (job_id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table download_tasks, download_jobs`.execute(db);
}
