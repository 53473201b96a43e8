import { type Kysely, sql } from 'kysely';
import { addMenuEntries } from '../menu.ts';
import { grantPermissions } from '../permissions.ts';

/**
 * Device commands (server-side RPC): every command sent to a device with its state, deadlines and reply, and the
 * bulk commands that addressed many devices at once. Sending is a permission of its own, given to the groups that
 * change devices. /device-commands joins existing tenants' menus.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table device_command_bulks (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      method varchar(64) not null,
      params jsonb,
      oneway boolean not null,
      timeout_ms int not null,
      target jsonb not null,
      total int not null,
      created_by int,
      created_at timestamptz not null,
      expires_at timestamptz not null
    );
    create index device_command_bulks_tenant_idx on device_command_bulks (tenant_id, id desc);
    create table device_commands (
      id serial primary key,
      tenant_id int not null references tenants(id) on delete cascade,
      device_id int not null,
      device_label varchar(255) not null,
      asset_id int,
      bulk_id int references device_command_bulks(id) on delete cascade,
      method varchar(64) not null,
      params jsonb,
      oneway boolean not null,
      timeout_ms int not null,
      state varchar(12) not null default 'queued',
      response jsonb,
      error varchar(200),
      transport varchar(8),
      created_by int,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      sent_at timestamptz,
      delivered_at timestamptz,
      completed_at timestamptz,
      timeout_at timestamptz
    );
    create index device_commands_device_idx on device_commands (tenant_id, device_id, id desc);
    create index device_commands_bulk_idx on device_commands (bulk_id, id) where bulk_id is not null;
    create index device_commands_pending_idx on device_commands (device_id, id) where state = 'queued';
    create index device_commands_deadline_idx on device_commands (timeout_at) where state in ('sent', 'delivered');
    create index device_commands_expiry_idx on device_commands (expires_at) where state = 'queued';
  `.execute(db);
  await grantPermissions(db, [{ codename: 'send_command', name: 'Can send device commands' }], ['change_device']);
  await addMenuEntries(db, [
    { group: 'Monitoring', item: { label: 'Device Commands', value: '/device-commands', icon: 'devices', permission: 'send_command' } },
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists device_commands; drop table if exists device_command_bulks`.execute(db);
}
