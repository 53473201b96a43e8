import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';

/**
 * Camera health analysis: per camera, how far its footage has been analysed and its reference frame; per finding,
 * a result with its frame, score and the verdict a person gives it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table analysis_cameras (
      tenant_id integer not null references tenants(id) on delete cascade,
      device_id integer not null,
      analysed_until timestamptz,
      reference_file text,
      reference_at timestamptz,
      video_lost_since timestamptz,
      primary key (tenant_id, device_id)
    )
  `.execute(db);
  await sql`
    create table analysis_results (
      id bigserial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      device_id integer not null,
      asset_id integer,
      analyser text not null check (analyser in ('videoLoss', 'black', 'frozen', 'blur', 'sceneChange')),
      at timestamptz not null,
      end_at timestamptz,
      score real not null check (score >= 0 and score <= 1),
      detail text not null default '',
      frame_file text,
      verdict text check (verdict in ('TRUE_POSITIVE', 'FALSE_POSITIVE')),
      reason text check (char_length(reason) <= 200),
      verified_by integer references users(id) on delete set null,
      verified_at timestamptz,
      ticket_id integer,
      ticket_no text,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index analysis_results_time_idx on analysis_results (tenant_id, at desc, id desc)`.execute(db);
  await sql`create index analysis_results_camera_idx on analysis_results (tenant_id, device_id, at desc)`.execute(db);
  await sql`create index analysis_results_pending_idx on analysis_results (tenant_id, id) where verdict is null`.execute(db);
  await addMenuEntries(db, [
    { group: 'Video', groupIcon: 'cameras', item: { label: 'Image Analysis', value: '/image-analysis', icon: 'cameras' } },
    { group: 'Video', groupIcon: 'cameras', item: { label: 'Result Verification', value: '/result-verification', icon: 'cameras' } },
    { group: 'Video', groupIcon: 'cameras', item: { label: 'Result Analysis', value: '/result-analysis', icon: 'recordings' } },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table analysis_results, analysis_cameras`.execute(db);
}
