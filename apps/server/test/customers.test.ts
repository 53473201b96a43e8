import { DEFAULT_TREE_NAVIGATION } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, HOST_B, type TestApp } from './support/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('customer calls', () => {
  it('returns the current customer, its logo without a session and its settings with defaults', async () => {
    const client = await t.login('customer');
    expect((await client.get('/iotapp/current-customer/')).json()).toMatchObject({ name: 'Northwind Facilities', slug: 'demo' });
    expect((await t.anonymous().get('/iotapp/customer-logo/')).json()).toEqual({ name: 'Northwind Facilities', logo: null });
    const { settings } = (await client.get('/iotapp/customer-settings/')).json();
    expect(settings).toMatchObject({
      treeAccess: true,
      showSystemAlert: true,
      aliases: { asset: 'Site', ticket: 'Ticket' },
      ticket: { refreshInterval: 10, initialDateFilter: 'last24h', newTicketStatus: 'OPEN', priority: 'MINOR', type: 'TICKET' },
    });
    expect(settings.menu.length).toBeGreaterThan(3);
  });

  it('lets only a customer admin change settings, and validates them', async () => {
    const admin = await t.login('customeradmin');
    const user = await t.login('customer');
    expect((await user.put('/iotapp/customer-settings/', { treeAccess: false })).statusCode).toBe(403);
    const bad = await admin.put('/iotapp/customer-settings/', { ticket: { refreshInterval: 2 } });
    expect(bad.statusCode).toBe(400);
    const ok = await admin.put('/iotapp/customer-settings/', { helpline: { phone: '+44 20 7946 0000' } });
    expect(ok.json().settings.helpline.phone).toBe('+44 20 7946 0000');
    const after = (await user.get('/iotapp/customer-settings/')).json().settings;
    expect(after.helpline.phone).toBe('+44 20 7946 0000');
    expect(after.menu.length).toBeGreaterThan(3);
    const entry = await t.db
      .selectFrom('user_activity_logs')
      .select(['before', 'after'])
      .where('action', '=', 'customer-settings.update')
      .where('tenant_id', '=', t.tenantA)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.after).toMatchObject({ helpline: { phone: '+44 20 7946 0000' } });
  });

  it('takes only a phone number and an e-mail address as the helpline (no javascript: links)', async () => {
    const admin = await t.login('customeradmin');
    for (const helpline of [{ phone: 'javascript:alert(1)' }, { email: 'javascript:alert(1)' }, { phone: '+1 555 0100', email: 'a@b' }]) {
      const res = await admin.put('/iotapp/customer-settings/', { helpline });
      expect(res.statusCode, JSON.stringify(helpline)).toBe(400);
      expect(res.json().detail).toMatch(/^Helpline (phone|e-mail) must be/);
    }
    const ok = await admin.put('/iotapp/customer-settings/', { helpline: { phone: '+1 (555) 010-0100', email: 'help@example.com' } });
    expect(ok.json().settings.helpline).toEqual({ phone: '+1 (555) 010-0100', email: 'help@example.com' });
    const cleared = await admin.put('/iotapp/customer-settings/', { helpline: { phone: '', email: '' } });
    expect(cleared.statusCode).toBe(200);
  });

  it('reports the version fields to anyone on the tenant', async () => {
    const res = await t.anonymous().get('/app-version/');
    expect(res.json().version).toMatchObject({ IOTFW: '4.2.1', iotGateway: '2.8.0', AIFW: '1.6.3', analyticsFW: '3.1.0' });
  });
});

describe('tree navigation entries (SPEC 2.13)', () => {
  const genset = { nodeType: 'device', deviceType: 'GENERATOR', label: 'Fuel report', to: '/genset/view/{assetId}/{deviceId}?tab=fuel' };
  const site = { nodeType: 'asset', label: 'Site tickets', to: '/helpdesk/tickets?assetId={assetId}' };

  it('starts every customer with the default entries', async () => {
    const other = await t.login('customer', HOST_B);
    expect((await other.get('/iotapp/customer-settings/')).json().settings.treeNavigation).toEqual(DEFAULT_TREE_NAVIGATION);
  });

  it('refuses entries that are not paths in the app, use unknown placeholders or mix node and device type', async () => {
    const admin = await t.login('customeradmin');
    const cases: [unknown, string][] = [
      [[{ ...site, to: 'https://example.com/{assetId}' }], 'starting with a single /'],
      [[{ ...site, to: '//example.com/x' }], 'starting with a single /'],
      [[{ ...genset, to: '/genset/{siteId}' }], 'may only use {assetId} and {deviceId}'],
      [[{ ...site, deviceType: 'DVR' }], 'A site entry has no device type'],
      [[{ ...site, to: '/devices/{deviceId}/view' }], 'A site entry cannot use {deviceId}'],
      [[{ ...genset, deviceType: 'TOASTER' }], 'Type must be one of'],
      [[{ ...genset, label: ' ' }], 'Label is required'],
      [[{ ...genset, extra: true }], 'Extra is not a known field'],
      [Array.from({ length: 51 }, () => site), 'At most 50 entries'],
    ];
    for (const [treeNavigation, message] of cases) {
      const res = await admin.put('/iotapp/customer-settings/', { treeNavigation });
      expect(res.statusCode, message).toBe(400);
      expect(JSON.stringify(res.json()), message).toContain(message);
    }
    expect((await admin.get('/iotapp/customer-settings/')).json().settings.treeNavigation).toEqual(DEFAULT_TREE_NAVIGATION);
  });

  it('lets a customer admin replace the entries for their tenant only, keeping the other settings', async () => {
    const admin = await t.login('customeradmin');
    expect((await (await t.login('customer')).put('/iotapp/customer-settings/', { treeNavigation: [site] })).statusCode).toBe(403);
    expect((await (await t.login('sysadmin')).put('/iotapp/customer-settings/', { treeNavigation: [site] })).statusCode).toBe(403);
    const before = (await admin.get('/iotapp/customer-settings/')).json().settings;
    const res = await admin.put('/iotapp/customer-settings/', { treeNavigation: [genset, { ...site, label: '  Site tickets ' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings.treeNavigation).toEqual([genset, site]);
    const seen = (await (await t.login('customer')).get('/iotapp/customer-settings/')).json().settings;
    expect(seen.treeNavigation).toEqual([genset, site]);
    expect(seen.aliases).toEqual(before.aliases);
    expect(seen.menu).toEqual(before.menu);
    const other = (await (await t.login('customeradmin', HOST_B)).get('/iotapp/customer-settings/')).json().settings;
    expect(other.treeNavigation).toEqual(DEFAULT_TREE_NAVIGATION);
    expect((await admin.put('/iotapp/customer-settings/', { treeNavigation: [] })).json().settings.treeNavigation).toEqual([]);
  });
});

describe('system alerts', () => {
  it('lets admins post and withdraw alerts that every user of the tenant sees', async () => {
    const admin = await t.login('customeradmin');
    const user = await t.login('customer');
    const posted = await admin.post('/notification/system-alerts/', { message: 'Generator test at 14:00' });
    expect(posted.statusCode).toBe(201);
    const list = (await user.get('/notification/system-alerts/')).json();
    expect(list.map((a: { message: string }) => a.message)).toContain('Generator test at 14:00');
    const other = await t.login('customer', HOST_B);
    expect((await other.get('/notification/system-alerts/')).json().map((a: { message: string }) => a.message)).not.toContain(
      'Generator test at 14:00',
    );
    expect((await other.delete(`/notification/system-alerts/${posted.json().id}/`)).statusCode).toBe(403);
    const otherAdmin = await t.login('customeradmin', HOST_B);
    expect((await otherAdmin.delete(`/notification/system-alerts/${posted.json().id}/`)).statusCode).toBe(404);
    expect((await admin.delete(`/notification/system-alerts/${posted.json().id}/`)).statusCode).toBe(204);
    const entries = await t.db
      .selectFrom('user_activity_logs')
      .select('action')
      .where('object_type', '=', 'system-alert')
      .where('object_id', '=', String(posted.json().id))
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['system-alert.create', 'system-alert.delete']);
  });

  it('refuses alerts from plain users and over 250 characters', async () => {
    const user = await t.login('customer');
    expect((await user.post('/notification/system-alerts/', { message: 'hi' })).statusCode).toBe(403);
    const admin = await t.login('sysadmin');
    const long = await admin.post('/notification/system-alerts/', { message: 'x'.repeat(251) });
    expect(long.statusCode).toBe(400);
    expect(long.json().detail).toContain('Please use maximum 250 characters');
  });
});

describe('system endpoints', () => {
  it('answers health and readiness without a tenant', async () => {
    expect((await t.anonymous('any.example.com').get('/health')).json()).toEqual({ status: 'ok' });
    expect((await t.anonymous('any.example.com').get('/ready')).json()).toMatchObject({ status: 'ready' });
  });
  it('publishes the OpenAPI document', async () => {
    const res = await t.anonymous().get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toContain('/current-login/');
  });
});
