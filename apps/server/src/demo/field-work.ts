import { haversineMeters } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Seeder } from './seeder.ts';

/**
 * Two weeks of attendance for the demo field executives (a visit or two per working day at their sites, with the odd
 * missing check-out), and equipment at the demo sites: generators, UPS, batteries and cameras with serials and
 * warranties, linked to the site's device of that kind when there is one.
 */

const DAYS = 14;
const EQUIPMENT_SITES = 40;
const KINDS = [
  {
    category: 'Generator',
    device: 'GENERATOR',
    name: 'Diesel generator',
    makes: [
      ['Kirloskar', 'KG1-62.5WS'],
      ['Cummins', 'C62.5D5'],
      ['Mahindra', 'Powerol 40'],
    ],
  },
  {
    category: 'UPS',
    device: 'UPS',
    name: 'Online UPS',
    makes: [
      ['APC', 'SRV10KI'],
      ['Eaton', '9SX 6000'],
      ['Vertiv', 'Liebert GXT5'],
    ],
  },
  {
    category: 'Battery',
    device: null,
    name: 'Battery bank',
    makes: [
      ['Exide', 'Powersafe 12V 100Ah'],
      ['Amara Raja', 'Quanta 12V 65Ah'],
    ],
  },
  {
    category: 'Camera',
    device: 'CAMERA',
    name: 'Dome camera',
    makes: [
      ['Hikvision', 'DS-2CD2143G2'],
      ['CP Plus', 'CP-UNC-DA41'],
      ['Dahua', 'IPC-HDW2441T'],
    ],
  },
] as const;

const day = (d: Date) => d.toISOString().slice(0, 10);

export const fieldWorkSeeder: Seeder = {
  name: 'field-work',
  async run({ db, tenantId, slug, random }) {
    const sites = await db
      .selectFrom('assets')
      .select(['id', 'name', 'latitude', 'longitude'])
      .where('tenant_id', '=', tenantId)
      .where('latitude', 'is not', null)
      .orderBy('id')
      .limit(EQUIPMENT_SITES)
      .execute();
    if (sites.length === 0) return;
    const now = new Date();

    // Attendance: each field executive works at their assigned sites (or a few of the first sites).
    const people = await db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`'fieldexecutive' = any(roles)`)
      .where('is_active', '=', true)
      .orderBy('id')
      .limit(20)
      .execute();
    const rows = [];
    for (const [p, person] of people.entries()) {
      const assigned = (
        await db.selectFrom('user_assets').select('asset_id').where('tenant_id', '=', tenantId).where('user_id', '=', person.id).execute()
      ).map((a) => a.asset_id);
      const mine = sites.filter((s) => assigned.includes(s.id));
      const pool = mine.length > 0 ? mine : sites.slice((p * 3) % sites.length, ((p * 3) % sites.length) + 3);
      for (let d = DAYS; d >= 1; d--) {
        const date = new Date(now.getTime() - d * 86_400_000);
        if (date.getUTCDay() === 0) continue;
        let start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 3 + random.int(0, 2), random.int(0, 59));
        const visits = random.int(1, 2);
        for (let v = 0; v < visits; v++) {
          const site = random.pick(pool.length > 0 ? pool : sites);
          const lat = (site.latitude as number) + (random.next() - 0.5) * 0.002;
          const lng = (site.longitude as number) + (random.next() - 0.5) * 0.002;
          const checkIn = new Date(start);
          const missing = d > 1 && random.chance(0.06);
          const checkOut = missing ? null : new Date(start + random.int(90, 300) * 60_000);
          rows.push({
            tenant_id: tenantId,
            user_id: person.id,
            asset_id: site.id,
            ticket_id: null,
            check_in_at: checkIn,
            check_in_lat: lat,
            check_in_lng: lng,
            check_in_accuracy: random.int(5, 40),
            distance_m: Math.round(haversineMeters(lat, lng, site.latitude as number, site.longitude as number)),
            check_out_at: checkOut,
            check_out_lat: checkOut ? lat : null,
            check_out_lng: checkOut ? lng : null,
            check_out_accuracy: checkOut ? random.int(5, 40) : null,
            snapshot_state: 'none',
            created_at: checkIn,
            updated_at: checkOut ?? checkIn,
          });
          if (missing) break;
          start = (checkOut as Date).getTime() + random.int(30, 90) * 60_000;
        }
        // One open record per person at most: a missing check-out ends that person's history.
        if (rows.at(-1)?.check_out_at === null && rows.at(-1)?.user_id === person.id) break;
      }
    }
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('attendance_records')
        .values(rows.slice(i, i + 500))
        .execute();

    // Equipment: a generator, a UPS, a battery bank and a camera at most sites.
    const devices = await db
      .selectFrom('devices')
      .select(['id', 'asset_id', 'type'])
      .where('tenant_id', '=', tenantId)
      .where(
        'asset_id',
        'in',
        sites.map((s) => s.id),
      )
      .where('type', 'in', ['GENERATOR', 'UPS', 'CAMERA'])
      .execute();
    const equipment = [];
    for (const [s, site] of sites.entries()) {
      for (const kind of KINDS) {
        if (kind.category === 'Battery' && s % 3 === 1) continue;
        const [make, model] = random.pick<readonly [string, string]>(kind.makes);
        const installed = new Date(now.getTime() - random.int(60, 1400) * 86_400_000);
        const warrantyDays = random.pick([365, 730, 1095, 1460]);
        const warranty = new Date(installed.getTime() + warrantyDays * 86_400_000);
        const device = kind.device ? devices.find((d) => d.asset_id === site.id && d.type === kind.device) : undefined;
        equipment.push({
          tenant_id: tenantId,
          asset_id: site.id,
          name: `${kind.name} ${s + 1}`,
          category: kind.category,
          make,
          model,
          serial: `${slug.toUpperCase()}-${kind.category.slice(0, 3).toUpperCase()}-${String(site.id).padStart(4, '0')}-${random.int(1000, 9999)}`,
          install_date: day(installed),
          warranty_until: day(warranty),
          device_id: device?.id ?? null,
          notes: '',
          status: random.chance(0.08) ? 'UNDER_MAINTENANCE' : 'ACTIVE',
          created_at: now,
          updated_at: now,
        });
      }
    }
    if (equipment.length > 0)
      await db
        .insertInto('equipment')
        .values(equipment)
        .onConflict((oc) => oc.doNothing())
        .execute();
  },
};
