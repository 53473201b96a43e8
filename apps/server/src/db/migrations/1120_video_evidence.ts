import { type Kysely, sql } from 'kysely';

/**
 * Video evidence on tickets: the clips of the cameras mapped to an alarm's device or site (SPEC 9: 300 s either side
 * of the alarm) and the short clip of an AI audit ticket, cut once the window has been recorded. An evidence row pins
 * its camera's footage over its window: retention skips pinned segments while the ticket is open.
 * Region motion: a camera's region and hours for the "motion in a region" analyser.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table video_evidence (
      id bigserial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      ticket_id integer not null,
      ticket_no text not null default '',
      device_id integer not null,
      source text not null check (source in ('alarm', 'analysis')),
      source_id bigint,
      event_at timestamptz not null,
      from_at timestamptz not null,
      to_at timestamptz not null check (to_at > from_at),
      status text not null default 'pending' check (status in ('pending', 'ready', 'failed')),
      bytes bigint,
      pinned boolean not null default true,
      created_at timestamptz not null default now(),
      unique (tenant_id, ticket_id, device_id, source, source_id)
    )
  `.execute(db);
  await sql`create index video_evidence_ticket_idx on video_evidence (tenant_id, ticket_id, id)`.execute(db);
  await sql`create index video_evidence_pins_idx on video_evidence (tenant_id, device_id, from_at) where pinned`.execute(db);
  await sql`alter table analysis_cameras add column region jsonb`.execute(db);
  await sql`alter table analysis_cameras add column motion_from text check (motion_from ~ '^[0-2][0-9]:[0-5][0-9]$')`.execute(db);
  await sql`alter table analysis_cameras add column motion_to text check (motion_to ~ '^[0-2][0-9]:[0-5][0-9]$')`.execute(db);
  await sql`alter table analysis_cameras add column motion_tz text check (char_length(motion_tz) <= 64)`.execute(db);
  await sql`alter table analysis_cameras add column motion_threshold real not null default 1 check (motion_threshold >= 0.1 and motion_threshold <= 50)`.execute(
    db,
  );
  await sql`alter table analysis_results drop constraint if exists analysis_results_analyser_check`.execute(db);
  await sql`
    alter table analysis_results add constraint analysis_results_analyser_check
      check (analyser in ('videoLoss', 'black', 'frozen', 'blur', 'sceneChange', 'regionMotion'))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table video_evidence`.execute(db);
  await sql`alter table analysis_cameras drop column region, drop column motion_from, drop column motion_to, drop column motion_tz, drop column motion_threshold`.execute(
    db,
  );
}
