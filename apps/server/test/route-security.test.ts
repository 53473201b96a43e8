import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../src/platform/routes.ts';
import { createTestApp, HOST_A, HOST_B, type TestApp, type TestClient } from './support/harness.ts';
import { OBJECT_ROUTES } from './support/object-routes.ts';

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

const fill = (url: string) =>
  url
    .replace(/:(\w+)/g, (_m, name: string) =>
      name.toLowerCase().includes('uuid') || name === 'sessionId' ? '00000000-0000-4000-8000-000000000000' : '1',
    )
    .replace('*', 'x');

describe('route table', () => {
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
  });
});
