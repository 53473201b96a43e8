import { DEVICE_TYPES, ROLES } from '@sitewatch/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/platform/routes.ts';
import { createTestApp, HOST_A, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { OBJECT_ROUTES } from './support/object-routes.ts';
import { makeDeviceOfEveryKind, makeSite } from './support/sites-factory.ts';

/**
 * Walks the server's whole route table: every route that is not public refuses a caller without a session and a
 * session of another tenant, and every route that names an object refuses another tenant's object.
 */
let t: TestApp;
let intruder: TestClient;
let routes: RouteEntry[];

beforeAll(async () => {
  t = await createTestApp();
  intruder = await t.login('customeradmin', HOST_B);
  routes = t.app.routeCatalog.filter((r) => !r.access.tenantless && !r.url.startsWith('/api/docs'));
});
afterAll(() => t?.close());

/**
 * Writes a customer may make, so their body is read once the caller is let through: their own profile, sign-in
 * factors, sessions, inbox and helpdesk preferences; raising a ticket; filling in a form they see (its draft, its
 * attachments, the response); reads through a POST (counts, widget data); an incident report or a clip download for a
 * camera named in the body (customers hold view_camera); an export of a kind named in the body (some kinds are
 * theirs). Every other write refuses a customer before the body: by their rights, or by the object its path names.
 */
const OPEN_TO_A_CUSTOMER = new Set([
  'POST /api/auth/totp/setup/',
  'POST /api/auth/totp/enable/',
  'POST /api/auth/totp/disable/',
  'POST /api/auth/change-password/',
  'PUT /api/auth/profile/',
  'POST /api/auth/sessions/sign-out-others/',
  'DELETE /api/auth/sessions/:id/',
  'PUT /notification/inbox/:id/',
  'POST /notification/inbox/mark-all-as-read/',
  'PUT /helpdesk/preferences/',
  'POST /iotapp/entities-query-count/',
  'POST /iotapp/dashboards/widget-data/',
  'POST /iotapp/dashboards/widget-data/batch/',
  'POST /helpdesk/tickets/',
  'PUT /ifmapp/dynamic-form-templates/:id/draft/',
  'POST /ifmapp/dynamic-forms-attachments/',
  'POST /ifmapp/dynamic-forms/',
  'POST /api/incident-reports/',
  'POST /api/batch-playback-download/',
  'POST /api/exports/',
]);

const fill = (url: string) =>
  url
    .replace(/:(\w+)/g, (_m, name: string) =>
      name.toLowerCase().includes('uuid') || name === 'sessionId' ? '00000000-0000-4000-8000-000000000000' : '1',
    )
    .replace('*', 'x');

describe('route table', { timeout: 180_000 }, () => {
  it('has routes to walk', () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  it('refuses every non-public route to a caller without a session', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => !r.access.public)) {
      const res = await t
        .anonymous(HOST_A)
        .request({ method: route.method as 'GET', url: fill(route.url), payload: route.method === 'GET' ? undefined : {} });
      if (res.statusCode !== 401) failures.push(`${route.method} ${route.url} -> ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses every non-public route to a session of another tenant', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => !r.access.public)) {
      const stolen = t.anonymous(HOST_A);
      stolen.cookies = new Map(intruder.cookies);
      stolen.access = intruder.access;
      const res = await stolen.request({
        method: route.method as 'GET',
        url: fill(route.url),
        payload: route.method === 'GET' ? undefined : {},
      });
      if (res.statusCode !== 401) failures.push(`${route.method} ${route.url} -> ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 421 on every tenant route for an unknown host', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const res = await t
        .anonymous('elsewhere.example.net')
        .request({ method: route.method as 'GET', url: fill(route.url), payload: route.method === 'GET' ? undefined : {} });
      if (res.statusCode !== 421) failures.push(`${route.method} ${route.url} -> ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 before looking at the body when a role or permission guard refuses the caller', async () => {
    const customer = await t.login('customer');
    const login = (await t.anonymous().passwordLogin('customer')).json();
    const caller = {
      auth: {
        roles: login.user.userRole as string[],
        permissions: new Set((login.user.groups[0]?.permissions ?? []).map((p: { codename: string }) => p.codename)),
      },
    };
    const refuses = async (guards: RouteEntry['guards']) => {
      for (const g of guards)
        if (
          await g(caller as never).then(
            () => false,
            () => true,
          )
        )
          return true;
      return false;
    };
    const failures: string[] = [];
    let refused = 0;
    for (const route of routes.filter((r) => r.method !== 'GET' && r.guards.length > 0)) {
      if (!(await refuses(route.guards))) continue;
      refused++;
      // a body no schema accepts: the answer must still be the guard's 403, not a 400 with field details
      const res = await customer.request({
        method: route.method as 'POST',
        url: fill(route.url),
        payload: '"x"',
        headers: { 'content-type': 'application/json' },
      });
      if (res.statusCode !== 403) failures.push(`${route.method} ${route.url} -> ${res.statusCode}`);
    }
    expect(refused).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it("answers a customer's write with an invalid body with 403 on every write the customer may not make", async () => {
    const customer = await t.login('customer');
    const failures: string[] = [];
    let refused = 0;
    for (const route of routes.filter((r) => r.method !== 'GET' && !r.access.public)) {
      if (OPEN_TO_A_CUSTOMER.has(`${route.method} ${route.url}`)) continue;
      const res = await customer.request({
        method: route.method as 'POST',
        url: fill(route.url),
        payload: '"x"',
        headers: { 'content-type': 'application/json' },
      });
      if (res.statusCode === 403) refused++;
      // a write without a body may look its object up first: a 404 says nothing of a body
      else if (res.statusCode !== 404) failures.push(`${route.method} ${route.url} -> ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(100);
  });

  it('answers a caller who may not act on the object a write names with 403 or 404 before looking at the body', async () => {
    const customer = await t.login('customer');
    const fieldExecutive = await t.login('fieldexecutive');
    const objectChecked = routes.filter((r) => r.method !== 'GET' && r.objectChecked);
    expect(objectChecked.length).toBeGreaterThan(15);
    const failures: string[] = [];
    for (const route of objectChecked) {
      const key = `${route.method} ${route.url}`;
      const fixture = OBJECT_ROUTES[key];
      if (!fixture) {
        failures.push(`${key}: no tenant-A object`);
        continue;
      }
      const { params } = await fixture(t);
      const url = route.url.replace(/:(\w+)/g, (_m, name: string) => String(params[name]));
      // another tenant's administrator never may; the tenant's customer and field executive may not act on an
      // administrator's objects outside their sites
      const callers = OPEN_TO_A_CUSTOMER.has(key)
        ? [['another tenant', intruder] as const]
        : [['another tenant', intruder] as const, ['customer', customer] as const, ['field executive', fieldExecutive] as const];
      for (const [who, client] of callers) {
        const res = await client.request({
          method: route.method as 'POST',
          url,
          payload: '"x"',
          headers: { 'content-type': 'application/json' },
        });
        if (res.statusCode !== 403 && res.statusCode !== 404)
          failures.push(`${key} as ${who} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('names a tenant-A object for every route with a path parameter', () => {
    const missing = routes.filter((r) => r.url.includes(':') && !OBJECT_ROUTES[`${r.method} ${r.url}`]).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it("refuses another tenant's objects on every route with a path parameter", async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.url.includes(':'))) {
      const fixture = OBJECT_ROUTES[`${route.method} ${route.url}`];
      if (!fixture) continue;
      const { params, payload } = await fixture(t);
      const url = route.url.replace(/:(\w+)/g, (_m, name: string) => String(params[name]));
      const res = await intruder.request({
        method: route.method as 'GET',
        url,
        payload: payload ?? (route.method === 'GET' ? undefined : {}),
      });
      if (res.statusCode !== 403 && res.statusCode !== 404) failures.push(`${route.method} ${route.url} -> ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it("keeps install-wide routes (backups hold every tenant) from other tenants' system administrators", async () => {
    const otherSysadmin = await t.login('sysadmin', HOST_B);
    const listing = await otherSysadmin.request({ method: 'GET', url: '/api/admin/backups/' });
    expect(listing.json()).toEqual({ available: false, schedule: null, items: [] });
    const start = await otherSysadmin.request({ method: 'POST', url: '/api/admin/backups/', payload: {} });
    expect(start.statusCode).toBe(403);
  });

  it("keeps a tenant's outbound networks to the system administrators of that tenant", async () => {
    const url = '/api/admin/outbound-networks/';
    for (const role of ['customeradmin', 'localadmin', 'customer'] as const) {
      const client = await t.login(role);
      expect((await client.get(url)).statusCode, role).toBe(403);
      expect((await client.put(url, { networks: ['public'] })).statusCode, role).toBe(403);
    }
    const own = await t.login('sysadmin');
    expect((await own.put(url, { networks: ['public', '10.9.0.0/16'] })).statusCode).toBe(200);
    // another tenant's system administrator reads and writes their own tenant's list only
    const other = await t.login('sysadmin', HOST_B);
    expect((await other.get(url)).json().networks).toBeNull();
    expect((await other.put(url, { networks: null })).statusCode).toBe(200);
    expect((await own.get(url)).json().networks).toEqual(['public', '10.9.0.0/16']);
  });
});

/** Every kind of device secret, each with a value no answer may carry. */
const DEVICE_SECRETS = {
  snmpCommunity: 'cm-LEAKMARK-1',
  snmpAuthKey: 'ak-LEAKMARK-2',
  snmpPrivKey: 'pk-LEAKMARK-3',
  rtspPassword: 'rp-LEAKMARK-4',
  httpPassword: 'hp-LEAKMARK-5',
  gatewayToken: 'gt-LEAKMARK-6',
  rtspUrl: 'rtsp://cam:up-LEAKMARK-7@127.0.0.1:8554/live',
  httpUrl: 'http://admin:hu-LEAKMARK-8@127.0.0.1/status',
};

describe('device secrets', () => {
  it('are write-only: no GET answer carries one, for any role, for any kind of device', async () => {
    const admin = await t.login('customeradmin');
    const site = await makeSite(admin, { name: 'Secrets Yard' });
    const { made, tokens } = await makeDeviceOfEveryKind(admin, site.id, { ...DEVICE_SECRETS, ipAddress: '127.0.0.9' });
    const ids = [...made.values()];
    // the provisioning secret of a customer's devices is write-only too
    const customer = (await admin.post('/iotapp/customers/', { name: 'Secrets Fleet' })).json();
    const provisioning = await admin.put(`/iotapp/customers/${customer.id}/iot-fw-cred/`, {
      provisionDeviceKey: 'secrets-fleet-key',
      provisionDeviceSecret: 'ps-LEAKMARK-10-0123456789',
    });
    expect(provisioning.statusCode, provisioning.body).toBe(200);
    expect(provisioning.body).not.toContain('LEAKMARK');
    const leaking = (body: string) => body.includes('LEAKMARK') || tokens.some((token) => body.includes(token));
    expect(ids).toHaveLength(DEVICE_TYPES.length);
    // a change leaves an activity entry with before and after
    const changed = await admin.put(`/iotapp/devices/${ids[0]}/`, { metadata: { snmpCommunity: 'cm-LEAKMARK-9' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().secrets).toContain('snmpCommunity');
    // the URL comes back with its credentials replaced; sending it back unchanged keeps the stored one
    const cam = made.get('CAMERA') as number;
    const shown = (await admin.get(`/iotapp/devices/${cam}/`)).json();
    expect(shown.metadata.rtspUrl).toBe('rtsp://***@127.0.0.1:8554/live');
    await admin.put(`/iotapp/devices/${cam}/`, { metadata: { rtspUrl: shown.metadata.rtspUrl } });
    const stored = await t.db.selectFrom('devices').select('metadata').where('id', '=', cam).executeTakeFirstOrThrow();
    expect((stored.metadata as Record<string, unknown>).rtspUrl).toBe(DEVICE_SECRETS.rtspUrl);

    const gets = t.app.routeCatalog.filter((r) => r.method === 'GET' && !r.access.public && !r.url.startsWith('/api/docs'));
    const leaks: string[] = [];
    let answered = 0;
    const walk = async (client: TestClient, role: string, all: boolean) => {
      for (const route of gets) {
        const aboutDevices = /device/i.test(route.url);
        if (!all && !aboutDevices) continue;
        const urls =
          route.url.includes(':id') && aboutDevices
            ? ids.map((id) => route.url.replace(':id', String(id)))
            : route.url.startsWith('/iotapp/customers/:id/')
              ? [route.url.replace(':id', String(customer.id))]
              : [route.url];
        for (const url of urls) {
          const res = await client.request({ method: 'GET', url: fill(url) });
          if (res.statusCode === 200) answered++;
          if (leaking(res.body)) leaks.push(`${role} GET ${url}`);
        }
      }
    };
    for (const role of ROLES) {
      const client = await t.login(role);
      await walk(client, role, role === 'customeradmin' || role === 'sysadmin');
    }
    // the device export and the activity entries of the device changes above
    const exported = (await admin.post('/api/exports/', { kind: 'devices' })).json();
    await t.app.jobs.drain();
    const file = await admin.get(`/api/batch-playback-download/${exported.jobId}/files/${exported.tasks[0].tid}/`);
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Secrets Yard');
    if (leaking(file.body)) leaks.push('the device export');
    const entries = await admin.get('/iotapp/user-activity-logs/?objectType=device&limit=200');
    expect(entries.json().contents.length).toBeGreaterThanOrEqual(DEVICE_TYPES.length);
    if (leaking(entries.body)) leaks.push('activity entries of devices');
    expect(leaks).toEqual([]);
    expect(answered).toBeGreaterThan(100);
  }, 600_000);
});

describe('device API routes', () => {
  it('refuses an unknown device token on every route that takes one', async () => {
    const deviceRoutes = t.app.routeCatalog.filter((r) => r.access.tenantless && r.url.includes(':token'));
    expect(deviceRoutes.length).toBeGreaterThanOrEqual(7);
    const failures: string[] = [];
    for (const route of deviceRoutes) {
      const url = route.url.replace(':token', 'not-a-device-token').replace(/:(\w+)/g, '1');
      const res = await t.app.inject({
        method: route.method as 'GET',
        url: route.method === 'GET' && url.includes('?') === false ? `${url}?timeout=0` : url,
        headers: { host: 'devices.example.net', 'content-type': 'application/json' },
        payload: route.method === 'GET' ? undefined : '{}',
      });
      if (res.statusCode !== 401) failures.push(`${route.method} ${route.url} -> ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
