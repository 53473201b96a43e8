import { type Kysely, sql } from 'kysely';

/**
 * The packing tables a camera watches (issue 18, /incident-report): an incident typed or scanned at a table finds
 * its camera here. A table number belongs to at most one camera of a tenant; the mapping goes with the camera's
 * video config. The demo's mappings come from its seeder `video-camera-tables`, which also reaches existing data.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table video_camera_tables (
      tenant_id integer not null references tenants(id) on delete cascade,
      table_number text not null check (char_length(table_number) between 1 and 60),
      device_id integer not null,
      primary key (tenant_id, table_number),
      foreign key (tenant_id, device_id) references video_cameras (tenant_id, device_id) on delete cascade
    )
  `.execute(db);
  await sql`create index video_camera_tables_camera_idx on video_camera_tables (tenant_id, device_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table video_camera_tables`.execute(db);
}
