import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * Device operations: the access events access controllers report (indexed from their telemetry for the event
 * lists), and the diagnostic runs started against devices. Running diagnostics is given to the groups that change
 * devices; the screens join existing tenants' menus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table access_events (
      id bigserial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null,
      asset_id int,
      door smallint not null,
      kind varchar(20) not null,
      credential varchar(120) not null default '',
      at timestamptz not null
    );
    create index access_events_site_idx on access_events (tenant_id, asset_id, at desc);
    create index access_events_device_idx on access_events (tenant_id, device_id, at desc);

    create table diagnostic_runs (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null,
      asset_id int,
      tool varchar(20) not null,
      target varchar(300) not null,
      status varchar(12) not null default 'running',
      output text not null default '',
      started_by int,
      started_at timestamptz not null,
      finished_at timestamptz,
      ticket_id int
    );
    create index diagnostic_runs_device_idx on diagnostic_runs (tenant_id, device_id, id desc);
    create index diagnostic_runs_tenant_idx on diagnostic_runs (tenant_id, id desc);
  `.execute(db);
  await grantPermissions(db, [{ codename: 'run_diagnostics', name: 'Can run device diagnostics' }], ['change_device']);
  await addMenuEntries(db, [
    { group: 'Monitoring', item: { label: 'Access Control', value: '/access-control', icon: 'devices', permission: 'view_device' } },
    { group: 'Monitoring', item: { label: 'Routers', value: '/router', icon: 'devices', permission: 'view_device' } },
    {
      group: 'Monitoring',
      item: { label: 'RTU', value: '/rtu-multisite', icon: 'devices', permission: 'view_device', childUrls: ['/eth-single-site/'] },
    },
    { group: 'Monitoring', item: { label: 'Diagnostics', value: '/diagnostics', icon: 'devices', permission: 'run_diagnostics' } },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists access_events; drop table if exists diagnostic_runs`.execute(db);
}
