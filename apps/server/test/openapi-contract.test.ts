import { validate } from '@readme/openapi-parser';
import type { paths } from '@sitewatch/contracts/api-paths';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allFieldsTemplate } from './forms-fixtures.ts';
import { CAPTCHA, createTestApp, PASSWORD, type TestApp } from './support/harness.ts';
import { makeDevice } from './telemetry-fixtures.ts';

/**
 * The OpenAPI document as a client would use it: checked by a maintained validator (@readme/openapi-parser), and
 * turned into a typed client (openapi-typescript's `paths` + openapi-fetch) that signs in as an integration does and
 * then works with its bearer token alone.
 */

let t: TestApp;
// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON read field by field
let document: any;

beforeAll(async () => {
  t = await createTestApp();
  document = t.app.swagger();
});
afterAll(() => t?.close());

/** fetch for openapi-fetch, answered by the app through inject() (no socket, loopback only). */
async function injectFetch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const headers: Record<string, string> = { host: 'localhost' };
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const res = await t.app.inject({ method: request.method as 'GET', url: url.pathname + url.search, headers, payload });
  const out = new Headers();
  for (const [key, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const v of value) out.append(key, String(v));
    else if (value !== undefined) out.set(key, String(value));
  }
  const empty = res.statusCode === 204 || res.rawPayload.length === 0;
  return new Response(empty ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers: out });
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

describe('the OpenAPI document', () => {
  it('is valid OpenAPI for a maintained validator', async () => {
    const result = await validate(structuredClone(document));
    expect(result.valid ? [] : result.errors.map((e) => e.message)).toEqual([]);
  });

  it('gives every operation an operationId, a summary and its 4xx answers; public ones need no session', () => {
    const ids = new Set<string>();
    let operations = 0;
    for (const [path, methods] of Object.entries<Record<string, Record<string, unknown>>>(document.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        operations++;
        const label = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, label).toBeTruthy();
        expect(ids.has(op.operationId as string), `${label} operationId unique`).toBe(false);
        ids.add(op.operationId as string);
        expect(String(op.summary ?? ''), label).toMatch(/^\S.{3,}$/);
        const statuses = Object.keys(op.responses as object);
        expect(
          statuses.some((s) => s.startsWith('4')),
          label,
        ).toBe(true);
        if (method !== 'get') expect(statuses, label).toContain('400');
      }
    }
    expect(operations).toBeGreaterThan(300);
    const security = (path: string, method: string) => document.paths[path][method].security;
    expect(security('/api/auth/login/', 'post')).toEqual([]);
    expect(security('/api/auth/csrf/', 'get')).toEqual([]);
    expect(security('/api/v1/{token}/telemetry', 'post')).toEqual([]);
    expect(security('/metrics', 'get')).toEqual([{ metricsToken: [] }, {}]);
    // a signed-in write: the bearer token alone, or the session cookie with the CSRF header
    expect(security('/helpdesk/tickets/', 'post')).toEqual([{ bearer: [] }, { session: [], csrf: [] }]);
    expect(document.components.securitySchemes.csrf).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-CSRFToken' });
    expect(document.paths['/api/v1/{token}/telemetry'].post.requestBody.content['application/json'].schema.oneOf).toHaveLength(3);
    expect(document.paths['/helpdesk/tickets/'].post.responses['400'].content['application/json'].schema.properties.detail).toBeTruthy();
  });
});

describe('a typed client built from the document', () => {
  it('signs in as an integration, then lists devices, raises a ticket, reads telemetry and posts a form response with the bearer token alone', async () => {
    const anonymous = createClient<paths>({ baseUrl: 'http://localhost', fetch: injectFetch });
    // Sign-in is a cookie-session form: the CSRF cookie and header, the captcha, then the token pair.
    const csrf = await anonymous.GET('/api/auth/csrf/');
    const cookie = cookiesOf(csrf.response);
    const csrfToken = /csrftoken=([^;]+)/.exec(cookie)?.[1] as string;
    const captcha = await anonymous.GET('/api/auth/captcha/');
    const captchaId = (captcha.data as { captchaId: string }).captchaId;
    const login = await anonymous.POST('/api/auth/login/', {
      body: { username: 'customeradmin', password: PASSWORD, captchaId, captcha: CAPTCHA, role: 'auth' } as never,
      headers: { cookie, 'x-csrftoken': csrfToken },
    });
    expect(login.response.status).toBe(200);
    const access = (login.data as { access: string }).access;

    // From here on: no cookie and no CSRF header, only the bearer token.
    const api = createClient<paths>({ baseUrl: 'http://localhost', fetch: injectFetch, headers: { authorization: `Bearer ${access}` } });
    const device = await makeDevice(t.db, t.tenantA, { label: 'contract-pump' });
    const devices = await api.GET('/iotapp/devices/', { params: { query: { searchText: 'contract-pump' } as never } });
    expect(devices.response.status).toBe(200);
    expect(JSON.stringify(devices.data)).toContain('contract-pump');

    const ticket = await api.POST('/helpdesk/tickets/', { body: { title: 'Raised by an integration', event: 'Power Failure' } as never });
    expect(ticket.response.status, JSON.stringify(ticket.error)).toBe(201);

    const posted = await api.POST('/api/v1/{token}/telemetry', {
      params: { path: { token: device.token } },
      body: { temperature: 21.5 } as never,
    });
    expect(posted.response.status).toBe(200);
    // the latest values are written a moment after the history (coalesced): read until they are there
    const readLatest = () => api.GET('/api/telemetry/devices/{id}/latest/', { params: { path: { id: device.id } } as never });
    let latest = await readLatest();
    for (let tries = 0; tries < 100 && !JSON.stringify(latest.data).includes('temperature'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      latest = await readLatest();
    }
    expect(latest.response.status).toBe(200);
    expect(JSON.stringify(latest.data)).toContain('temperature');

    const template = await api.POST('/ifmapp/dynamic-form-templates/', { body: allFieldsTemplate('Integration audit') as never });
    expect(template.response.status, JSON.stringify(template.error)).toBe(201);
    const formId = (template.data as { id: number }).id;
    const response = await api.POST('/ifmapp/dynamic-forms/', {
      body: { formTemplate: formId, data: { title: 'Checked', score: 4 }, attachments: [] } as never,
    });
    expect(response.response.status, JSON.stringify(response.error)).toBe(201);

    // PUT of exactly what GET returned: the read-only fields (id, counts, timestamps) are ignored
    const got = await api.GET('/ifmapp/dynamic-form-templates/{id}/', { params: { path: { id: formId } } as never });
    expect(got.data).toMatchObject({ id: formId, responseCount: 1 });
    const put = await api.PUT('/ifmapp/dynamic-form-templates/{id}/', {
      params: { path: { id: formId } } as never,
      body: got.data as never,
    });
    expect(put.response.status, JSON.stringify(put.error)).toBe(200);
    // an unknown field is still refused
    const typo = await api.PUT('/ifmapp/dynamic-form-templates/{id}/', {
      params: { path: { id: formId } } as never,
      body: { ...(got.data as object), lable: 'typo' } as never,
    });
    expect(typo.response.status).toBe(400);
  });

  it('still asks a cookie session for the CSRF header, also when a bearer token rides along', async () => {
    const admin = await t.login('customeradmin');
    const withCookie = await admin.post('/helpdesk/tickets/', { title: 'No CSRF', event: 'Power Failure' }, { csrf: false } as never);
    expect(withCookie.statusCode).toBe(403);
    expect(withCookie.json().code).toBe('csrf_failed');
    const bearerOnly = await t.app.inject({
      method: 'POST',
      url: '/helpdesk/tickets/',
      headers: { host: 'localhost', authorization: `Bearer ${admin.access}` },
      payload: { title: 'Bearer only', event: 'Power Failure' },
    });
    expect(bearerOnly.statusCode, bearerOnly.body).toBe(201);
    // a forged cookie-less request without a valid token is a 401, never a write
    const forged = await t.app.inject({
      method: 'POST',
      url: '/helpdesk/tickets/',
      headers: { host: 'localhost', authorization: 'Bearer not-a-token' },
      payload: { title: 'Forged', event: 'Power Failure' },
    });
    expect(forged.statusCode).toBe(401);
  });
});
