import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { casesFor, type Operation, seededRandom } from './support/fuzz.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';

/**
 * The route fuzzer over the dashboards' routes only (dashboards, folders, components, versions, widget data,
 * analytics links and the public link view), with more cases per route: never a 5xx, whatever the input.
 */
const SEED = 20261123;
const CASES_PER_ROUTE = 120;
/** Routes that would end the fuzzing session itself. */
const SKIPPED = new Set(['POST /api/auth/logout/']);

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
}, 120_000);
afterAll(() => t?.close());

describe('dashboards route fuzzer', () => {
  it('answers no 5xx to bounded hostile input on any dashboards route', async () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const random = seededRandom(SEED);
    const failures: string[] = [];
    let cases = 0;
    let routes = 0;
    const started = Date.now();
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!/dashboard|analytics/.test(path)) continue;
      for (const [method, op] of Object.entries(operations)) {
        const verb = method.toUpperCase();
        if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(verb) || SKIPPED.has(`${verb} ${path}`)) continue;
        if (op.requestBody?.content && !op.requestBody.content['application/json']) continue; // uploads: multipart
        routes++;
        for (const c of casesFor(verb, path, op, random, CASES_PER_ROUTE)) {
          cases++;
          const send = () => admin.request({ method: c.method as 'GET', url: c.url, payload: c.payload as never });
          let res = await send();
          if (res.statusCode === 401) {
            admin = await t.login('customeradmin');
            res = await send();
          }
          if (res.statusCode >= 500) failures.push(`${c.method} ${path} [${c.label}] -> ${res.statusCode}`);
        }
      }
    }
    console.info(`dashboards route fuzzer: ${routes} routes, ${cases} cases, ${failures.length} answered 5xx, ${Date.now() - started} ms`);
    expect(failures).toEqual([]);
  }, 300_000);
});
