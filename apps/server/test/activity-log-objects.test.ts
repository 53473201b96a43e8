import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditOrigin, writeActivity } from '../src/platform/audit.ts';
import { activityEntries, entriesOf } from './activity-log-fixtures.ts';
import { createTestApp, HOST_B, type TestApp, type TestClient } from './support/harness.ts';

let t: TestApp;
let admin: TestClient;
let other: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  other = await t.login('customeradmin', HOST_B);
});
afterAll(() => t?.close());

const entries = (query: string, client = admin) => activityEntries(client, query);
const of = (type: string, id: number) => entriesOf(admin, type, id);

describe('activity log of sites, devices and tickets', () => {
  it('records a site created, changed and deleted: one entry each with the actor, the object and before/after', async () => {
    const me = admin.user?.id as number;
    const name = `Audited site ${Date.now()}`;
    const created = await admin.post('/iotapp/assets/', { name, address: ['India', 'Goa'], metadata: {} });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect((await admin.put(`/iotapp/assets/${id}/`, { address: ['India', 'Kerala'] })).statusCode).toBe(200);
    expect((await admin.delete(`/iotapp/assets/${id}/`)).statusCode).toBe(204);
    const log = await of('site', id);
    expect(log.map((e) => e.action)).toEqual(['site.create', 'site.update', 'site.delete']);
    for (const e of log) expect(e).toMatchObject({ actorId: me, objectType: 'site', ip: expect.any(String) });
    expect(log[0]?.after).toMatchObject({ name, address: ['India', 'Goa'] });
    expect(log[1]?.before).toEqual({ address: ['India', 'Goa'] });
    expect(log[1]?.after).toEqual({ address: ['India', 'Kerala'] });
    expect(log[2]?.before).toMatchObject({ name, address: ['India', 'Kerala'] });
    expect(log[2]?.after).toBeNull();
  });

  it('records a device created, changed and deleted, without its access token', async () => {
    const site = (await admin.post('/iotapp/assets/', { name: `Device site ${Date.now()}`, address: ['India'], metadata: {} })).json();
    const created = await admin.post('/iotapp/devices/', { label: 'AUDITR1', type: 'ROUTER', assetId: site.id });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const token = (await admin.post(`/iotapp/devices/${id}/access-token/`)).json().accessToken as string;
    expect(token).toMatch(/^[\w-]{20}$/);
    expect((await admin.put(`/iotapp/devices/${id}/`, { label: 'AUDITR2' })).statusCode).toBe(200);
    expect((await admin.delete(`/iotapp/devices/${id}/`)).statusCode).toBe(204);
    const log = await of('device', id);
    expect(log.map((e) => e.action)).toEqual(['device.create', 'device.access-token.read', 'device.update', 'device.delete']);
    expect(log[0]).toMatchObject({ actorId: admin.user?.id, after: { label: 'AUDITR1', type: 'ROUTER', assetId: site.id } });
    expect(log[2]?.before).toMatchObject({ label: 'AUDITR1' });
    expect(log[2]?.after).toMatchObject({ label: 'AUDITR2' });
    expect(Object.keys(log[2]?.after ?? {})).not.toContain('type');
    expect(log[3]?.before).toMatchObject({ label: 'AUDITR2' });
    expect(JSON.stringify(log)).not.toContain(token);
  });

  it('records a ticket raised and changed', async () => {
    const raised = await admin.post('/helpdesk/tickets/', { title: 'Audited ticket', event: 'Power Failure' });
    expect(raised.statusCode, raised.body).toBe(201);
    const ticket = raised.json();
    const changed = await admin.put(`/helpdesk/tickets/${ticket.id}/`, { version: ticket.version, title: 'Audited ticket (edited)' });
    expect(changed.statusCode, changed.body).toBe(200);
    const log = await of('ticket', ticket.id);
    expect(log.map((e) => e.action)).toEqual(['ticket.create', 'ticket.update']);
    expect(log[0]).toMatchObject({ actorId: admin.user?.id, after: { title: 'Audited ticket', event: 'Power Failure' } });
    expect(log[1]).toMatchObject({ before: { title: 'Audited ticket' }, after: { title: 'Audited ticket (edited)' } });
  });

  it('leaves no entry for a refused change, and none when the change is rolled back after its entry was written', async () => {
    const site = (await admin.post('/iotapp/assets/', { name: `Dup site ${Date.now()}`, address: ['India'], metadata: {} })).json();
    expect((await admin.post('/iotapp/devices/', { label: 'DUP1', type: 'ROUTER', assetId: site.id })).statusCode).toBe(201);
    const before = (await entries('?action=device.create&limit=200')).length;
    expect((await admin.post('/iotapp/devices/', { label: 'DUP1', type: 'ROUTER', assetId: site.id })).statusCode).toBe(409);
    expect((await entries('?action=device.create&limit=200')).length).toBe(before);

    const tenantId = (await sql<{ tenant_id: number }>`select tenant_id from assets where id = ${site.id}`.execute(t.db)).rows[0]
      ?.tenant_id as number;
    const origin: AuditOrigin = { tenantId, userId: admin.user?.id as number, username: null, ip: '127.0.0.1', userAgent: null };
    await expect(
      t.db.transaction().execute(async (trx) => {
        await writeActivity(trx, origin, { action: 'site.update', object: { type: 'site', id: site.id } });
        throw new Error('change refused');
      }),
    ).rejects.toThrow('change refused');
    expect((await of('site', site.id)).map((e) => e.action)).toEqual(['site.create']);
  });

  it('a failing entry fails the change it is written with: both or neither', async () => {
    const site = (await admin.post('/iotapp/assets/', { name: `Savepoint site ${Date.now()}`, address: ['India'], metadata: {} })).json();
    const tenantId = (await sql<{ tenant_id: number }>`select tenant_id from assets where id = ${site.id}`.execute(t.db)).rows[0]
      ?.tenant_id as number;
    const origin: AuditOrigin = {
      tenantId,
      userId: null,
      username: null,
      ip: null,
      userAgent: null,
      log: { error: () => undefined },
    };
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`update assets set name = ${`${site.name} renamed`} where id = ${site.id}`.execute(trx);
        // A not-null violation: the entry cannot be written, so the change is not either.
        await writeActivity(trx, origin, { action: null as unknown as string });
        await sql`update assets set latitude = 1 where id = ${site.id}`.execute(trx);
      }),
    ).rejects.toThrow();
    const row = (
      await sql<{ name: string; latitude: number | null }>`select name, latitude from assets where id = ${site.id}`.execute(t.db)
    ).rows[0];
    expect(row?.name).toBe(site.name);
    expect(row?.latitude).not.toBe(1);
  });

  it("is never shown to another tenant's administrator", async () => {
    for (const type of ['site', 'device', 'ticket']) {
      expect(await entries(`?objectType=${type}`, other)).toHaveLength(0);
    }
    expect((await entries('?objectType=site')).length).toBeGreaterThan(0);
  });
});
