import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * The calendar (events, their recurrences and exceptions, maintenance windows in force), video markers for the
 * windows, the helpdesk's SLA pause, the Calendar permissions for existing groups and the menu entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table calendar_events (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      title text not null,
      kind text not null,
      all_day boolean not null default false,
      start_local text not null,
      end_local text not null,
      time_zone text not null,
      recurrence jsonb,
      exceptions text[] not null default '{}',
      series_id integer references calendar_events(id) on delete cascade,
      original_start text,
      site_id integer,
      device_id integer,
      cluster_id integer,
      notes text not null default '',
      color text,
      assignee_ids integer[] not null default '{}',
      starts_at timestamptz not null,
      ends_at timestamptz,
      created_by integer,
      version integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index calendar_events_range on calendar_events (tenant_id, starts_at)`.execute(db);
  await sql`create index calendar_events_series on calendar_events (series_id) where series_id is not null`.execute(db);
  await sql`create index calendar_events_windows on calendar_events (tenant_id) where kind = 'maintenance_window'`.execute(db);
  await sql`
    create table calendar_window_runs (
      tenant_id integer not null references tenants(id) on delete cascade,
      event_id integer not null,
      title text not null,
      occurrence text not null,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      site_id integer,
      device_ids integer[] not null default '{}',
      switched_on integer[] not null default '{}',
      sla_site_ids integer[] not null default '{}',
      primary key (tenant_id, event_id)
    )
  `.execute(db);
  await sql`
    create table video_markers (
      id bigserial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      camera_id integer not null,
      ref text not null,
      label text not null,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      created_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index video_markers_camera on video_markers (tenant_id, camera_id, starts_at)`.execute(db);
  await sql`create index video_markers_ref on video_markers (tenant_id, ref)`.execute(db);
  await sql`alter table tickets add column if not exists sla_paused_at timestamptz`.execute(db);

  // Administrators (groups that change users) get every Calendar permission; groups that work tickets (field
  // staff, operators) see the calendar and add their own shifts; every other group that sees sites may look.
  const grant = (codenames: string[], holder: string) =>
    grantPermissions(
      db,
      codenames.map((codename) => ({ codename, name: `Can ${codename.replace('_', ' ')}` })),
      [holder],
    );
  await grant(['view_event', 'add_event', 'change_event', 'delete_event'], 'change_user');
  await grant(['view_event', 'add_event'], 'change_ticket');
  await grant(['view_event'], 'view_asset');

  await addMenuEntries(db, [
    {
      group: 'Helpdesk',
      item: { label: 'Calendar', value: '/calendar', icon: 'calendar', permission: 'view_event', childUrls: ['/calendar/'] },
    },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`select 1`.execute(db);
}
