import { type Kysely, sql } from 'kysely';

/**
 * A photo taken with the phone at check-in: uploaded first (so a check-in kept on the phone while offline can send
 * it before the check-in itself), then claimed by the check-in that names it. An upload no check-in claimed is
 * removed after a day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table attendance_photos (
      uid uuid primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null,
      record_id int references attendance_records(id) on delete cascade,
      type varchar(40) not null,
      size int not null,
      blob_key varchar(200) not null,
      created_at timestamptz not null default now()
    );
    create unique index attendance_photos_record_idx on attendance_photos (tenant_id, record_id) where record_id is not null;
    create index attendance_photos_unclaimed_idx on attendance_photos (created_at) where record_id is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists attendance_photos`.execute(db);
}
