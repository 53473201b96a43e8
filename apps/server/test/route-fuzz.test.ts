import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { casesFor, type Operation, seededRandom } from './support/fuzz.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';

/**
 * Walks every route of the OpenAPI document and sends, as an admin of tenant A, one plausible request and a
 * bounded, seeded sample of hostile variants of it. Whatever the input, the answer is never a 5xx: bad input is
 * the caller's fault (4xx), never a database error.
 */
const SEED = 20261123;
const CASES_PER_ROUTE = 60;
/** Routes that would end the fuzzing session itself. */
const SKIPPED = new Set(['POST /api/auth/logout/']);
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * 2xx writes that may leave no activity entry. Every other 2xx write must leave one (issue: a change escaped the
 * audit trail when its entry failed and was dropped).
 */
const UNRECORDED = new Set<string>([
  // the caller's own second-factor setup: nothing changes until it is confirmed (`totp.enable`, recorded)
  'POST /api/auth/totp/setup/',
  // the caller's own inbox, preferences and profile
  'POST /notification/inbox/mark-all-as-read/',
  'PUT /helpdesk/preferences/',
  'PUT /api/auth/profile/',
  // the device API: a device asking for credentials, no user acting
  'POST /api/v1/provision',
  // a write that changed nothing (the same values again, tickets already so assigned) has nothing to record
  'PUT /iotapp/vendors/{id}/',
  'POST /helpdesk/tickets/assign/',
  // a query sent as a POST (its filter is a body): it reads and changes nothing
  'POST /iotapp/entities-query-count/',
  // the order of the caller's own dashboards in their navigation
  'POST /iotapp/dashboards/reorder/',
]);

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('sysadmin');
}, 120_000);
afterAll(() => t?.close());

// before the fuzzer: its plausible cases change the tenant's data (groups, settings) as any admin could
describe('the shared input rule', () => {
  it('answers a NUL in a query, path or body with a clear 400, and ids past the column range with a 400', async () => {
    const query = await admin.get('/iotapp/customers/?searchText=a%00b');
    expect(query.statusCode).toBe(400);
    expect(query.json().detail).toBe('NUL characters are not allowed');
    expect(query.json().errors[0].path).toBe('querystring.searchText');
    const body = await admin.post('/helpdesk/issue-types/', { name: 'x\u0000' });
    expect(body.statusCode).toBe(400);
    expect((await admin.get('/iotapp/devices/2147483648/')).statusCode).toBe(400);
    expect((await admin.get('/iotapp/devices/2147483647/')).statusCode).toBe(404);
  });

  it('answers an unpaired surrogate in a body or a query with a 400 naming the field, and stores nothing', async () => {
    const vendors = async () =>
      Number(
        (
          await t.db
            .selectFrom('vendors')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await vendors();
    const vendor = await admin.post('/iotapp/vendors/', { company: 'x\ud800', name: 'Lone', email: 'lone@example.com', phone: '5550100' });
    expect(vendor.statusCode).toBe(400);
    expect(vendor.json().detail).toBe('Company contains an unpaired surrogate (not a valid character)');
    expect(vendor.json().errors[0].path).toBe('body.company');
    expect(await vendors()).toBe(before);
    const site = await admin.post('/iotapp/assets/', { name: '\udc00 site' });
    expect(site.statusCode).toBe(400);
    expect(site.json().errors[0].path).toBe('body.name');
    const query = await admin.get('/iotapp/customers/?searchText=%5Cud800');
    expect(query.statusCode).toBe(200); // a backslash text, not a surrogate: only JSON escapes make one
    // a well-formed pair (an emoji) is a character like any other
    const emoji = await admin.post('/helpdesk/issue-types/', { name: 'Leak \ud83d\udca7' });
    expect(emoji.statusCode).toBe(201);
  });
});

describe('route fuzzer', () => {
  it('answers no 5xx to bounded hostile input on any route', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const random = seededRandom(SEED);
    const failures: string[] = [];
    const unrecorded = new Set<string>();
    /** The newest activity entry's id: one index probe, where counting the log would read all of it per write. */
    const newestEntry = async () =>
      Number(
        (
          await t.db
            .selectFrom('user_activity_logs')
            .select((e) => e.fn.max('id').as('id'))
            .executeTakeFirstOrThrow()
        ).id ?? 0,
      );
    let newest = 0;
    /** Whether something other than a write of this loop ran since `newest` was read (a read may record, a sign-in does). */
    let stale = true;
    let cases = 0;
    let routes = 0;
    const started = Date.now();
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (path.startsWith('/api/docs') || path.includes('*')) continue;
      for (const [method, op] of Object.entries(operations)) {
        const verb = method.toUpperCase();
        if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(verb) || SKIPPED.has(`${verb} ${path}`)) continue;
        if (op.requestBody?.content && !op.requestBody.content['application/json']) continue; // uploads: multipart
        routes++;
        for (const c of casesFor(verb, path, op, random, CASES_PER_ROUTE)) {
          cases++;
          const send = () => admin.request({ method: c.method as 'GET', url: c.url, payload: c.payload as never });
          if (UNSAFE.has(verb) && stale) newest = await newestEntry();
          let res = await send();
          // A 401 may be the route's own answer (a bad MFA token); sign in again only when the session is gone.
          if (res.statusCode === 401 && (await admin.get('/current-login/')).statusCode === 401) {
            admin = await t.login('sysadmin');
            if (UNSAFE.has(verb)) newest = await newestEntry();
            res = await send();
          }
          if (res.statusCode >= 500) failures.push(`${c.method} ${path} [${c.label}] -> ${res.statusCode}`);
          if (UNSAFE.has(verb)) {
            // a refused write may record its refusal too: the mark moves after every write, whatever its answer
            const after = await newestEntry();
            if (res.statusCode < 300 && !UNRECORDED.has(`${verb} ${path}`) && after === newest) unrecorded.add(`${verb} ${path}`);
            newest = after;
          }
          stale = !UNSAFE.has(verb);
        }
      }
    }
    console.info(`route fuzzer: ${routes} routes, ${cases} cases, ${failures.length} answered 5xx, ${Date.now() - started} ms`);
    expect(failures).toEqual([]);
    // every write that succeeded has its activity entry (the change and its entry are one outcome)
    expect([...unrecorded].sort()).toEqual([]);
  }, 300_000);
});
