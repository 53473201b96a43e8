import { TERMINAL_STATUSES } from '@sitewatch/contracts';
import type { Seeder } from './seeder.ts';

/**
 * A few vendors per tenant serving some of its sites and issue types, the demo `vendor` user working for the first,
 * and some open tickets at their sites assigned to them.
 */

const VENDORS = [
  { company: 'PowerCare Services', contact: 'Ravi Menon', issues: ['Power Failure', 'Preventive Maintenance'] },
  { company: 'ClearView Security', contact: 'Lena Fischer', issues: ['Camera Fault', 'Intrusion Alarm', 'Device Offline'] },
  { company: 'NetLink Solutions', contact: 'Omar Haddad', issues: ['Network Down', 'Device Offline'] },
  { company: 'CoolAir Mechanical', contact: 'Mia Tanaka', issues: ['HVAC'] },
];

export const vendorsSeeder: Seeder = {
  name: 'vendors',
  async run({ db, tenantId, slug, random }) {
    const sites = (await db.selectFrom('assets').select('id').where('tenant_id', '=', tenantId).orderBy('id').limit(200).execute()).map(
      (s) => s.id,
    );
    const issueTypes = await db.selectFrom('issue_types').select(['id', 'name']).where('tenant_id', '=', tenantId).execute();
    const vendorUser = await db
      .selectFrom('users')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('username', '=', 'vendor')
      .executeTakeFirst();
    const now = new Date();
    for (const [i, spec] of VENDORS.entries()) {
      const vendor = await db
        .insertInto('vendors')
        .values({
          tenant_id: tenantId,
          company: spec.company,
          contact_person: spec.contact,
          email: `${spec.contact.split(' ')[0]?.toLowerCase()}@${spec.company.split(' ')[0]?.toLowerCase()}.example.com`,
          phone: `98${String(tenantId).padStart(2, '0').slice(-2)}${String(100000 + i * 1111 + random.int(0, 999)).slice(-6)}`,
          address: `${10 + i} Service Road, ${slug === 'acme' ? 'Springfield' : 'Pune'}`,
          notes: i === 0 ? 'Round-the-clock call-out; four-hour response on power faults.' : '',
          active: true,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!vendor) continue;
      // Each vendor covers an overlapping share of the estate.
      const served = sites.filter((_s, k) => k % VENDORS.length === i || k % VENDORS.length === (i + 1) % VENDORS.length);
      if (served.length)
        await db
          .insertInto('vendor_sites')
          .values(served.map((asset_id) => ({ tenant_id: tenantId, vendor_id: vendor.id, asset_id })))
          .execute();
      const types = issueTypes.filter((t) => spec.issues.includes(t.name));
      if (types.length)
        await db
          .insertInto('vendor_issue_types')
          .values(types.map((t) => ({ tenant_id: tenantId, vendor_id: vendor.id, issue_type_id: t.id })))
          .execute();
      if (i === 0 && vendorUser)
        await db
          .insertInto('vendor_users')
          .values({ tenant_id: tenantId, vendor_id: vendor.id, user_id: vendorUser.id })
          .onConflict((oc) => oc.doNothing())
          .execute();
      if (served.length && types.length) {
        const open = await db
          .selectFrom('tickets')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('vendor_id', 'is', null)
          .where('location_id', 'in', served)
          .where(
            'event',
            'in',
            types.map((t) => t.name),
          )
          .where('status', 'not in', TERMINAL_STATUSES as string[])
          .orderBy('id', 'desc')
          .limit(3 + random.int(0, 3))
          .execute();
        if (open.length)
          await db
            .updateTable('tickets')
            .set({ vendor_id: vendor.id })
            .where(
              'id',
              'in',
              open.map((t) => t.id),
            )
            .execute();
      }
    }
  },
};
