import type { Db } from '../platform/db.ts';
import { analysisSeeder } from './analysis.ts';
import { calendarSeeder } from './calendar.ts';
import { dashboardsSeeder } from './dashboards.ts';
import { deviceApiSeeder } from './device-api.ts';
import { deviceOpsSeeder } from './device-ops.ts';
import { fieldWorkSeeder } from './field-work.ts';
import { formsSeeder } from './forms.ts';
import { DEMO_TENANTS, seedFoundation } from './foundation.ts';
import { helpdeskSeeder } from './helpdesk.ts';
import { inventorySeeder } from './inventory.ts';
import { notificationsSeeder } from './notifications.ts';
import { peopleDirectoriesSeeder } from './people-directories.ts';
import { createRandom } from './random.ts';
import { reportsSeeder } from './reports.ts';
import type { SeedContext, Seeder } from './seeder.ts';
import { alarmRulesSeeder } from './simulator/alarm-rules.ts';
import { sitesSeeder } from './sites.ts';
import { simulatedNetworkSeeder, snmpSeeder, snmpTrapRelaySeeder } from './snmp.ts';
import { vendorsSeeder } from './vendors.ts';
import { videoCameraTablesSeeder, videoOnDemandSeeder, videoSeeder } from './video.ts';
import { videoEvidenceSeeder } from './video-evidence.ts';

export type { SeedContext, Seeder } from './seeder.ts';

/** Later domains add their demo data here; each seeder runs once per tenant. */
export const seeders: Seeder[] = [
  simulatedNetworkSeeder,
  sitesSeeder,
  videoSeeder,
  videoOnDemandSeeder,
  helpdeskSeeder,
  notificationsSeeder,
  alarmRulesSeeder,
  deviceOpsSeeder,
  formsSeeder,
  analysisSeeder,
  vendorsSeeder,
  inventorySeeder,
  reportsSeeder,
  peopleDirectoriesSeeder,
  calendarSeeder,
  fieldWorkSeeder,
  snmpSeeder,
  snmpTrapRelaySeeder,
  dashboardsSeeder,
  videoEvidenceSeeder,
  videoCameraTablesSeeder,
  deviceApiSeeder,
];

/**
 * Runs a piece of seeding while no other process seeds the same database (processes of a split deployment start
 * together on one PostgreSQL); the embedded database has one process, which needs no lock.
 */
export type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;
const alone: Exclusive = (fn) => fn();

const tenantIdOf = async (db: Db, slug: string) =>
  (await db.selectFrom('tenants').select('id').where('slug', '=', slug).executeTakeFirst())?.id;

/** Creates the demo tenants with one account per role, once; returns their ids in DEMO_TENANTS order. */
export async function seedDemoTenants(db: Db, log: SeedContext['log'], exclusive: Exclusive = alone): Promise<number[]> {
  const ids: number[] = [];
  for (const spec of DEMO_TENANTS) {
    const tenantId =
      (await tenantIdOf(db, spec.slug)) ??
      (await exclusive(async () => {
        const made = await tenantIdOf(db, spec.slug);
        if (made !== undefined) return made;
        const id = await seedFoundation(db, spec);
        log.info(`demo tenant "${spec.slug}" created`);
        return id;
      }));
    ids.push(tenantId);
  }
  return ids;
}

/** Seeds everything that is missing for the demo tenants: each seeder runs once per tenant, in order. */
export async function seedDemo(db: Db, seed: number, log: SeedContext['log'], dataDir?: string, exclusive: Exclusive = alone) {
  const tenantIds = await seedDemoTenants(db, log, exclusive);
  const appliedOf = async (tenantId: number) =>
    new Set((await db.selectFrom('demo_seeders').select('name').where('tenant_id', '=', tenantId).execute()).map((r) => r.name));
  for (const [index, spec] of DEMO_TENANTS.entries()) {
    const tenantId = tenantIds[index] as number;
    const applied = await appliedOf(tenantId);
    for (const seeder of seeders) {
      if (applied.has(seeder.name)) continue;
      await exclusive(async () => {
        // another process may have run it while this one waited
        if ((await appliedOf(tenantId)).has(seeder.name)) return;
        await seeder.run({ db, tenantId, slug: spec.slug, random: createRandom(seed * 1000 + index), log, dataDir });
        await db.insertInto('demo_seeders').values({ tenant_id: tenantId, name: seeder.name }).execute();
        log.info(`demo data "${seeder.name}" seeded for "${spec.slug}"`);
      });
    }
  }
}
