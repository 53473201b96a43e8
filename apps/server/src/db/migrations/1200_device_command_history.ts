import { type Kysely, sql } from 'kysely';

/**
 * Every state change of a device command (and every change of the transport that holds it: a claim for the
 * external broker, a requeue after a lost connection) as a row of its history, written by a trigger so that no
 * statement that moves a command can forget it. Commands stored before get their history from their timestamps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table device_command_history (
      id bigserial primary key,
      tenant_id int not null,
      command_id int not null references device_commands(id) on delete cascade,
      state varchar(12) not null,
      transport varchar(8),
      at timestamptz not null
    );
    create index device_command_history_command_idx on device_command_history (command_id, id);
    create or replace function device_command_history_record() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.state is distinct from old.state or new.transport is distinct from old.transport then
        insert into device_command_history (tenant_id, command_id, state, transport, at)
        values (new.tenant_id, new.id, new.state, new.transport, case
          when tg_op = 'INSERT' then new.created_at
          when new.state = 'sent' and new.state is distinct from old.state then coalesce(new.sent_at, now())
          when new.state = 'delivered' then coalesce(new.delivered_at, now())
          when new.state in ('successful', 'failed', 'timeout', 'expired') then coalesce(new.completed_at, now())
          else now() end);
      end if;
      return null;
    end $$;
    create trigger device_commands_history after insert or update of state, transport on device_commands
      for each row execute function device_command_history_record();
    insert into device_command_history (tenant_id, command_id, state, transport, at)
      select tenant_id, id, 'queued', null, created_at from device_commands;
    insert into device_command_history (tenant_id, command_id, state, transport, at)
      select tenant_id, id, 'sent', transport, sent_at from device_commands where sent_at is not null;
    insert into device_command_history (tenant_id, command_id, state, transport, at)
      select tenant_id, id, 'delivered', transport, delivered_at from device_commands
      where delivered_at is not null and state = 'delivered';
    insert into device_command_history (tenant_id, command_id, state, transport, at)
      select tenant_id, id, state, transport, completed_at from device_commands
      where completed_at is not null and state <> 'delivered';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger if exists device_commands_history on device_commands;
    drop function if exists device_command_history_record();
    drop table if exists device_command_history;
  `.execute(db);
}
