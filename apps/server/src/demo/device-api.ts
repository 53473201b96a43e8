import { sql } from 'kysely';
import type { Seeder } from './seeder.ts';

/**
 * Shared attributes the demo's firmware reads: how often to report (every device) and the firmware routers should
 * run. Set once per tenant, also in data folders made before shared attributes existed.
 */
export const deviceApiSeeder: Seeder = {
  name: 'device-shared-attributes',
  async run({ db, tenantId, log }) {
    const { rows } = await sql<{ n: number }>`
      with inserted as (
        insert into device_shared_attributes (tenant_id, device_id, key, value)
        select d.tenant_id, d.id, a.key, a.value
        from devices d
        cross join lateral (
          select 'reportingIntervalSeconds' as key, '30'::jsonb as value
          union all
          select 'targetFirmware', '"4.2.1"'::jsonb where d.type = 'ROUTER'
        ) a
        where d.tenant_id = ${tenantId}
        on conflict (device_id, key) do nothing
        returning 1
      )
      select count(*)::int as n from inserted
    `.execute(db);
    log.info(`shared attributes set: ${rows[0]?.n ?? 0}`);
  },
};
