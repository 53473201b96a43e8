import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/platform/db.ts';

/**
 * A benchmark estate built in PostgreSQL with generate_series: `sites` sites spread over 10 countries × 10 regions
 * × 20 cities, each with a router, a DVR with six cameras and a disk, and a generator (10 devices per site).
 * Statuses: 80 % online, 15 % offline, 5 % not yet connected; a few alarms.
 */
export async function buildEstate(db: Db, tenantId: number, sites = 10_000) {
  await sql`
    insert into assets (tenant_id, name, address, latitude, longitude, metadata)
    select ${tenantId}, 'Bench Site ' || lpad(i::text, 5, '0'),
      array['Country ' || lpad((i % 10)::text, 2, '0'), 'Region ' || lpad(((i / 10) % 10)::text, 2, '0'), 'City ' || lpad(((i / 100) % 20)::text, 2, '0')],
      -45 + ((i * 7919) % 9000) / 100.0, -170 + ((i * 104729) % 34000) / 100.0,
      jsonb_build_object('assetCode', 'BS-' || lpad(i::text, 5, '0'), 'merchantId', 'M' || (100000 + i))
    from generate_series(0, ${sites - 1}) as i`.execute(db);

  const status = (salt: number) =>
    sql.raw(
      `(case when (a.id * 7 + ${salt}) % 20 < 16 then 'Online' when (a.id * 7 + ${salt}) % 20 < 19 then 'Offline' else 'Not yet connected' end)`,
    );
  const token = sql.raw(`md5(random()::text || clock_timestamp()::text)`);
  const meta = JSON.stringify({ muteDevice: false, maintenance: false, enableDevice: true });

  await sql`
    insert into devices (tenant_id, name, label, type, status, alarm_status, alarm_updated_at, last_activity_at, asset_id, is_parent, access_token, metadata)
    select a.tenant_id, (a.metadata->>'assetCode') || ':RTR-01', 'RTR-01', 'ROUTER', ${status(0)},
      case when a.id % 37 = 0 then 'MAJOR' else 'NORMAL' end, now() - (a.id % 600) * interval '1 second', now(), a.id, true, ${token}, ${meta}::jsonb
    from assets a where a.tenant_id = ${tenantId}`.execute(db);
  await sql`
    insert into devices (tenant_id, name, label, type, status, asset_id, parent_id, is_parent, access_token, metadata, state)
    select r.tenant_id, r.name || ':' || v.label, v.label, v.type, ${status(3)}, r.asset_id, r.id, v.type = 'DVR', ${token}, ${meta}::jsonb,
      case when v.type = 'GENERATOR' then '{"fuelLevel": 61, "running": false}'::jsonb else '{}'::jsonb end
    from devices r join assets a on a.id = r.asset_id
    cross join (values ('DVR-01', 'DVR'), ('DG-01', 'GENERATOR')) as v(label, type)
    where r.tenant_id = ${tenantId} and r.type = 'ROUTER'`.execute(db);
  await sql`
    insert into devices (tenant_id, name, label, type, status, asset_id, parent_id, access_token, metadata, state)
    select d.tenant_id, d.name || ':' || v.label, v.label, v.type, ${status(5)}, d.asset_id, d.id, ${token}, ${meta}::jsonb,
      case when v.type = 'CAMERA' then jsonb_build_object('videoLoss', (a.id + n) % 23 = 0) else '{}'::jsonb end
    from devices d join assets a on a.id = d.asset_id
    cross join generate_series(1, 7) as n
    cross join lateral (select case when n <= 6 then 'CAM-0' || n else 'HDD-01' end as label, case when n <= 6 then 'CAMERA' else 'HDD' end as type) v
    where d.tenant_id = ${tenantId} and d.type = 'DVR'`.execute(db);
  // As autovacuum would after a load: statistics and the visibility map (index-only scans need it).
  await sql`vacuum analyze assets`.execute(db);
  await sql`vacuum analyze devices`.execute(db);
  const counts = await sql<{ sites: number; devices: number }>`
    select (select count(*) from assets where tenant_id = ${tenantId})::int as sites,
           (select count(*) from devices where tenant_id = ${tenantId})::int as devices`.execute(db);
  return counts.rows[0] as { sites: number; devices: number };
}
