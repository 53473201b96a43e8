import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * Attendance: field staff's check-ins and check-outs at sites, one open record per user (a partial unique index).
 * The groups that work tickets (change_ticket) may check in; the groups that administer users see everyone's
 * records. The check-in screen and attendance-management join existing tenants' menus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table attendance_records (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      user_id int not null,
      asset_id int not null,
      ticket_id int,
      check_in_at timestamptz not null,
      check_in_lat double precision not null,
      check_in_lng double precision not null,
      check_in_accuracy double precision,
      distance_m int not null,
      check_out_at timestamptz,
      check_out_lat double precision,
      check_out_lng double precision,
      check_out_accuracy double precision,
      moved_ticket_ids int[] not null default '{}',
      snapshot_state varchar(12) not null default 'none',
      snapshot_key varchar(200),
      snapshot_at timestamptz,
      snapshot_camera varchar(250),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index attendance_one_open_idx on attendance_records (tenant_id, user_id) where check_out_at is null;
    create index attendance_time_idx on attendance_records (tenant_id, check_in_at desc, id desc);
    create index attendance_user_idx on attendance_records (tenant_id, user_id, check_in_at desc);
    create index attendance_site_idx on attendance_records (tenant_id, asset_id, check_in_at desc);
  `.execute(db);
  await grantPermissions(db, [{ codename: 'add_attendance', name: 'Can check in and out' }], ['change_ticket']);
  await grantPermissions(db, [{ codename: 'view_attendance', name: 'Can view attendance' }], ['change_user']);
  await addMenuEntries(db, [
    { group: 'Helpdesk', item: { label: 'Check In', value: '/attendance', icon: 'users', permission: 'add_attendance' } },
    {
      group: 'Helpdesk',
      item: { label: 'Attendance Management', value: '/attendance-management', icon: 'users', permission: 'view_attendance' },
    },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists attendance_records`.execute(db);
}
