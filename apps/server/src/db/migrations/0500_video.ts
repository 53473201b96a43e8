import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table video_storages (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      path text not null,
      retention_days int not null default 30,
      max_bytes bigint,
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (tenant_id, name),
      unique (tenant_id, path)
    );
    create unique index video_storages_default_idx on video_storages (tenant_id) where is_default;

    create table video_cameras (
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null references devices(id) on delete cascade,
      -- copies of the device's label and site, refreshed from the site directory on every change, for lists
      label text not null default '',
      asset_id int,
      simulated boolean not null default false,
      stream_url text,
      recording_enabled boolean not null default true,
      segment_sec int not null default 2,
      storage_id int references video_storages(id) on delete set null,
      state text not null default 'idle',
      last_error text,
      last_segment_at timestamptz,
      live_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, device_id)
    );
    create index video_cameras_asset_idx on video_cameras (tenant_id, asset_id);

    create table video_segments (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null,
      storage_path text not null,
      run text not null,
      file text not null,
      start_at timestamptz not null,
      end_at timestamptz not null,
      bytes bigint not null default 0,
      unique (tenant_id, device_id, run, file)
    );
    create index video_segments_camera_time_idx on video_segments (tenant_id, device_id, start_at);
    create index video_segments_storage_time_idx on video_segments (tenant_id, storage_path, start_at);

    create table video_tours (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      name text not null,
      layout int not null default 1,
      stops jsonb not null,
      created_by int references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index video_tours_tenant_idx on video_tours (tenant_id, id);

    create table video_incidents (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      title text not null,
      description text not null default '',
      awb text not null,
      table_number text not null,
      device_id int not null references devices(id) on delete cascade,
      event_at timestamptz not null,
      duration_sec int not null,
      status text not null default 'OPEN',
      clip_status text not null default 'pending',
      clip_key text,
      created_by int references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index video_incidents_tenant_idx on video_incidents (tenant_id, id desc);

    create table video_clip_jobs (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      name text not null,
      status text not null default 'starting',
      queue_job_id int,
      error text,
      downloaded boolean not null default false,
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index video_clip_jobs_user_idx on video_clip_jobs (tenant_id, user_id, id desc);

    create table video_clip_tasks (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      job_id int not null references video_clip_jobs(id) on delete cascade,
      tid uuid not null unique default gen_random_uuid(),
      device_id int not null,
      name text not null,
      camera_label text,
      start_at timestamptz not null,
      end_at timestamptz not null,
      status text not null default 'starting',
      progress int not null default 0,
      file text,
      bytes bigint,
      error text,
      is_read boolean not null default false,
      updated_at timestamptz not null default now()
    );
    create index video_clip_tasks_job_idx on video_clip_tasks (job_id, id);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table video_clip_tasks, video_clip_jobs, video_incidents, video_tours, video_segments, video_cameras, video_storages`.execute(
    db,
  );
}
