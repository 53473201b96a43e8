import { alarmColour } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmStatusOf } from '../src/modules/alarms/repository.ts';
import { createTestApp, type TestApp } from './support/harness.ts';
import { startLivingDemo } from './support/living-demo.ts';

/**
 * The living demo (both tenants' estates, the device simulator over MQTT, the trap simulator, the demo's alarm
 * rules and their timers) runs for a while; all along and at the end, every device's alarm status is the worst
 * severity of its active alarms, NORMAL without any, and the tree and the site summary show the same.
 */
const RUN_MS = 75_000;
const CHECK_EVERY_MS = 15_000;

let t: TestApp;
let demo: Awaited<ReturnType<typeof startLivingDemo>> | undefined;

/** Devices of both demo tenants whose stored alarm status is not the one their alarms give (one statement: one snapshot). */
async function disagreeing() {
  const { rows } = await sql<{ id: number; tenant_id: number; alarm_status: string; expected: string }>`
    select d.id, d.tenant_id, d.alarm_status, ${alarmStatusOf('d.id')} as expected from devices d
    where d.tenant_id in (${t.tenantA}, ${t.tenantB}) and d.alarm_status is distinct from ${alarmStatusOf('d.id')}`.execute(t.db);
  return rows;
}

beforeAll(async () => {
  t = await createTestApp({ STATUS_SWEEP_SECONDS: '2', TELEMETRY_FLUSH_MS: '100', SNMP_TRAP_HOST: '127.0.0.1' });
  demo = await startLivingDemo(t, { intervalSeconds: 5, folder: 'sw-living-demo-' });
}, 240_000);

afterAll(async () => {
  await demo?.stop();
  await t?.close();
  demo?.remove();
}, 60_000);

describe('alarm status on the living demo', () => {
  it('always equals the worst active alarm of the device, for every device of both tenants', async () => {
    expect(await disagreeing()).toEqual([]);
    const started = Date.now();
    while (Date.now() - started < RUN_MS) {
      await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
      expect(await disagreeing()).toEqual([]);
    }
    await demo?.stop();
    await t.handles.alarms.alarms.settled();
    expect(await disagreeing()).toEqual([]);

    // the demo lived: rules and traps raised alarms, and some cleared again
    const counts = await sql<{ source: string; state: string; n: number }>`
      select case when rule_id is null then 'trap' else 'rule' end as source, state, count(*)::int as n
      from alarms group by 1, 2`.execute(t.db);
    const n = (source: string, state: string) => counts.rows.find((r) => r.source === source && r.state === state)?.n ?? 0;
    expect(n('rule', 'ACTIVE')).toBeGreaterThan(0);
    expect(n('trap', 'ACTIVE') + n('trap', 'CLEARED')).toBeGreaterThan(0);
    expect(n('rule', 'CLEARED') + n('trap', 'CLEARED')).toBeGreaterThan(0);
    const statuses = await sql<{ tenant_id: number; alarm_status: string; n: number }>`
      select tenant_id, alarm_status, count(*)::int as n from devices group by 1, 2`.execute(t.db);
    expect(statuses.rows.filter((r) => r.alarm_status !== 'NORMAL').length).toBeGreaterThan(0);
    expect(statuses.rows.every((r) => r.alarm_status !== null)).toBe(true);
  }, 240_000);

  it('colours the tree and the site summary from the alarms', async () => {
    const admin = await t.login('customeradmin');
    /**
     * What the tree, the device and the map show against what the alarms give, for the tenant's worst alarm and the
     * first site whose router has one. The stopped demo's devices fall silent, and the status sweep may still raise
     * or clear an alarm between the query and the answer: a difference counts only if it outlasts a few rounds.
     */
    const differences = async () => {
      const found: string[] = [];
      const { rows } = await sql<{ device_id: number; label: string; site: string; asset_id: number; severity: string }>`
        select al.device_id, d.label, a.name as site, a.id as asset_id, al.severity from alarms al
        join devices d on d.id = al.device_id join assets a on a.id = d.asset_id
        where al.state = 'ACTIVE' and al.tenant_id = ${t.tenantA}
        order by case al.severity when 'CRITICAL' then 4 when 'MAJOR' then 3 when 'MINOR' then 2 else 1 end desc, al.id limit 1`.execute(
        t.db,
      );
      const worst = rows[0];
      if (!worst) return ['no active alarm in tenant A'];
      const search = (await admin.get(`/iotapp/assets/tree/search/?searchText=${encodeURIComponent(worst.site)}&limit=50`)).json();
      const siteNode = search.sites.find((s: { assetId: number }) => s.assetId === worst.asset_id);
      // the alarm found is the worst of the tenant, so it is the worst of its site
      if (siteNode?.alarmStatus !== worst.severity || siteNode?.iconColor !== alarmColour(worst.severity))
        found.push(`tree: ${worst.site} shows ${siteNode?.alarmStatus}/${siteNode?.iconColor}, its worst alarm is ${worst.severity}`);
      const device = (await admin.get(`/iotapp/devices/${worst.device_id}/`)).json();
      if (device.alarmStatus !== worst.severity)
        found.push(`device ${worst.label}: ${device.alarmStatus}, its worst alarm is ${worst.severity}`);
      // the map marks each site with its router's alarm status: the first site whose router has an active alarm
      const router = (
        await sql<{ site: string; asset_id: number; expected: string }>`
          select a.name as site, a.id as asset_id, ${alarmStatusOf('d.id')} as expected from devices d join assets a on a.id = d.asset_id
          where d.tenant_id = ${t.tenantA} and d.type = 'ROUTER'
            and exists (select 1 from alarms al where al.device_id = d.id and al.state = 'ACTIVE')
            and d.id = (select min(r.id) from devices r where r.asset_id = a.id and r.type = 'ROUTER')
          order by d.id limit 1`.execute(t.db)
      ).rows[0];
      if (!router) return [...found, 'no router of tenant A has an active alarm'];
      const map = (await admin.get(`/iotapp/assets/map/?parentDevice=ROUTER&searchText=${encodeURIComponent(router.site)}`)).json();
      const marker = map.contents.find((m: { id: number }) => m.id === router.asset_id);
      if (marker?.alarmStatus !== router.expected)
        found.push(`map: ${router.site} shows ${marker?.alarmStatus}, its router's alarms give ${router.expected}`);
      return found;
    };
    let found = await differences();
    for (let round = 0; round < 5 && found.length > 0; round++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      found = await differences();
    }
    expect(found).toEqual([]);
  });
});
