import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';
import { vendorInput } from './vendors-fixtures.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
});
afterAll(() => t?.close());

const vendorsNamed = async (company: string) =>
  (await t.db.selectFrom('vendors').select('id').where('company', '=', company).execute()).length;

describe('a change and its activity entry', () => {
  it('are one outcome: when the entry cannot be written, the change is not made either', async () => {
    // the audit trail refuses this one entry, as it refused an entry holding an unpaired surrogate
    await sql`alter table audit_log add constraint refuse_probe check (detail::text not like '%atomic-probe%')`.execute(t.db);
    try {
      const refused = await admin.post('/iotapp/vendors/', vendorInput({ company: 'atomic-probe Ltd' }));
      expect(refused.statusCode).toBe(500);
      expect(await vendorsNamed('atomic-probe Ltd')).toBe(0);
    } finally {
      await sql`alter table audit_log drop constraint refuse_probe`.execute(t.db);
    }
    const made = await admin.post('/iotapp/vendors/', vendorInput({ company: 'atomic-probe Ltd' }));
    expect(made.statusCode).toBe(201);
    expect(await vendorsNamed('atomic-probe Ltd')).toBe(1);
    const entry = await t.db
      .selectFrom('user_activity_logs')
      .select(['action', 'object_id'])
      .where('action', '=', 'vendor.create')
      .where('object_id', '=', String(made.json().id))
      .execute();
    expect(entry).toHaveLength(1);
  });

  it('refuses an unpaired surrogate in a vendor or a site before anything is stored', async () => {
    const vendor = await admin.post('/iotapp/vendors/', vendorInput({ company: 'x\ud800' }));
    expect(vendor.statusCode).toBe(400);
    expect(vendor.json().errors[0]).toMatchObject({
      path: 'body.company',
      message: 'Company contains an unpaired surrogate (not a valid character)',
    });
    expect(await vendorsNamed('x\ufffd')).toBe(0);
    const site = await admin.post('/iotapp/assets/', { name: 'Depot \udc00' });
    expect(site.statusCode).toBe(400);
    expect(site.json().errors[0].path).toBe('body.name');
  });
});
