import { type Kysely, sql } from 'kysely';

/**
 * A device's alarm status is the worst severity of its active alarms, NORMAL when none (docs/alarms.md). The demo
 * estate used to be seeded with statuses no alarm stood behind, so every device is set from its alarms here, and a
 * new device starts NORMAL. From now on only the alarm engine sets it, in the transaction of the alarm.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update devices d set alarm_status = w.status, alarm_updated_at = now()
    from (
      select x.id, coalesce((
          select case max(case al.severity when 'WARNING' then 1 when 'MINOR' then 2 when 'MAJOR' then 3 when 'CRITICAL' then 4 end)
            when 1 then 'WARNING' when 2 then 'MINOR' when 3 then 'MAJOR' when 4 then 'CRITICAL' end
          from alarms al where al.device_id = x.id and al.state = 'ACTIVE'), 'NORMAL') as status
      from devices x) w
    where w.id = d.id and d.alarm_status is distinct from w.status`.execute(db);
  await sql`alter table devices alter column alarm_status set default 'NORMAL', alter column alarm_status set not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table devices alter column alarm_status drop not null, alter column alarm_status drop default`.execute(db);
}
