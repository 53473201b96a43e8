import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient, genericErrorMessage, type HttpEnv, HttpError, REFRESH_MARGIN_MS } from './http-client.ts';
import type { PageLocation } from './navigation.ts';
import { createMemoryStore, type KeyValueStore } from './storage.ts';

type Reply = { status: number; body?: unknown; statusText?: string; raw?: string };
type Call = { url: string; init: RequestInit & { headers: Record<string, string> } };

const NO_BODY = new Set([204, 205, 304]);

function respond(reply: Reply): Response {
  const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  return new Response(NO_BODY.has(reply.status) ? null : text, {
    status: reply.status,
    statusText: reply.statusText ?? '',
    headers: { 'content-type': reply.raw === undefined ? 'application/json' : 'text/html' },
  });
}

/** A JWT-shaped token whose payload has the given expiry (seconds). */
const token = (exp: number, tag = 'a', iat?: number) => `h.${Buffer.from(JSON.stringify({ exp, tag, iat })).toString('base64url')}.s`;

interface Harness {
  env: HttpEnv;
  store: KeyValueStore;
  calls: Call[];
  toasts: Array<[string, string]>;
  navigations: string[];
  timers: Array<{ fn: () => void; ms: number; handle: number }>;
  sessionEnds: number;
  setLocation(loc: Partial<PageLocation>): void;
  /** Answers by path (first match of routes); each route is a queue or a function. */
  routes: Map<string, Reply[] | ((call: Call) => Reply)>;
  now: number;
}

function harness(initial: Record<string, string> = {}): Harness {
  const h = {
    store: createMemoryStore(initial),
    calls: [] as Call[],
    toasts: [] as Array<[string, string]>,
    navigations: [] as string[],
    timers: [] as Array<{ fn: () => void; ms: number; handle: number }>,
    sessionEnds: 0,
    routes: new Map<string, Reply[] | ((call: Call) => Reply)>(),
    now: 1_700_000_000_000,
    location: { pathname: '/tickets', search: '?status=OPEN', hash: '' } as PageLocation,
    cookie: 'tok.sig' as string | null,
  };
  let nextHandle = 1;
  const env: HttpEnv = {
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const call = { url, init: { ...(init ?? {}), headers: { ...((init?.headers as Record<string, string>) ?? {}) } } };
      h.calls.push(call);
      const path = url.split('?')[0] ?? url;
      const route = h.routes.get(path);
      if (!route) return respond({ status: 200, body: { ok: true } });
      if (typeof route === 'function') return respond(route(call));
      const reply = route.length > 1 ? route.shift() : route[0];
      if (!reply) throw new TypeError('Failed to fetch');
      return respond(reply);
    }) as typeof fetch,
    store: h.store,
    getCookie: (name) => (name === 'csrftoken' ? h.cookie : null),
    location: () => h.location,
    navigate: (url) => void h.navigations.push(url),
    notify: (kind, message) => void h.toasts.push([kind, message]),
    setTimeout: (fn, ms) => {
      const handle = nextHandle++;
      h.timers.push({ fn, ms, handle });
      return handle;
    },
    clearTimeout: (handle) => {
      h.timers = h.timers.filter((t) => t.handle !== handle);
    },
    now: () => h.now,
    onSessionEnd: () => {
      h.sessionEnds++;
    },
  };
  return Object.assign(h, {
    env,
    setLocation: (loc: Partial<PageLocation>) => {
      h.location = { pathname: '/', search: '', hash: '', ...loc };
    },
  }) as unknown as Harness;
}

const SIGNED_IN = {
  user: JSON.stringify({ id: 1, username: 'customer' }),
  access: 'access-1',
  refresh: 'refresh-1',
  'x-log-role': 'customeradmin',
  'cookie-consent': 'accepted',
  'fab-state': 'docked',
  'config-theme': 'dark',
  'current-customer': '{"id":1}',
};
const KEPT = { 'x-log-role': 'customeradmin', 'cookie-consent': 'accepted', 'fab-state': 'docked', 'config-theme': 'dark' };

function storeContents(store: KeyValueStore): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key !== null) out[key] = store.getItem(key) as string;
  }
  return out;
}

describe('request basics (SPEC 7)', () => {
  it('sends the bearer token, the CSRF header from the csrftoken cookie and same-origin credentials', async () => {
    const h = harness(SIGNED_IN);
    const client = createHttpClient(h.env);
    await client.post('/iotapp/things/', { a: 1 });
    const call = h.calls[0] as Call;
    expect(call.init.headers.Authorization).toBe('Bearer access-1');
    expect(call.init.headers['X-CSRFToken']).toBe('tok.sig');
    expect(call.init.headers['Content-Type']).toBe('application/json');
    expect(call.init.credentials).toBe('same-origin');
    expect(call.init.body).toBe('{"a":1}');
  });

  it('sends a body whose progress is wanted through the upload transport, with the same headers, and reads its reply', async () => {
    const h = harness(SIGNED_IN);
    const heard: Array<[number, number]> = [];
    const uploads: Call[] = [];
    h.env.upload = async (url, init, onProgress) => {
      uploads.push({ url, init: { ...init, headers: init.headers as Record<string, string> } });
      onProgress(5, 10);
      onProgress(10, 10);
      return respond({ status: 201, body: { contents: [{ uid: 'u1' }] } });
    };
    const client = createHttpClient(h.env);
    const body = new FormData();
    body.append('attachments', new Blob(['0123456789']), 'a.txt');
    const result = await client.post('/ifmapp/files/', body, { onUploadProgress: (sent, total) => heard.push([sent, total]) });
    expect(result).toEqual({ contents: [{ uid: 'u1' }] });
    expect(heard).toEqual([
      [5, 10],
      [10, 10],
    ]);
    expect(h.calls).toHaveLength(0);
    expect(uploads[0]?.init.headers.Authorization).toBe('Bearer access-1');
    expect(uploads[0]?.init.headers['X-CSRFToken']).toBe('tok.sig');
    expect(uploads[0]?.init.body).toBe(body);

    await client.post('/ifmapp/files/', body);
    expect(h.calls).toHaveLength(1);
    expect(uploads).toHaveLength(1);
  });

  it('copies the CSRF cookie on every call, also on GET', async () => {
    const h = harness(SIGNED_IN);
    const client = createHttpClient(h.env);
    await client.get('/iotapp/a/');
    (h as unknown as { cookie: string }).cookie = 'new.sig';
    await client.get('/iotapp/b/');
    expect(h.calls.map((c) => c.init.headers['X-CSRFToken'])).toEqual(['tok.sig', 'new.sig']);
  });

  it('fetches the CSRF cookie first when an unsafe call has none', async () => {
    const h = harness(SIGNED_IN);
    (h as unknown as { cookie: string | null }).cookie = null;
    h.routes.set('/api/auth/csrf/', () => {
      (h as unknown as { cookie: string }).cookie = 'fresh.sig';
      return { status: 200, body: { csrfToken: 'fresh.sig' } };
    });
    const client = createHttpClient(h.env);
    await client.post('/iotapp/x/', {});
    expect(h.calls.map((c) => c.url)).toEqual(['/api/auth/csrf/', '/iotapp/x/']);
    expect(h.calls[1]?.init.headers['X-CSRFToken']).toBe('fresh.sig');
  });

  it('re-reads the access token from storage every second', async () => {
    const h = harness(SIGNED_IN);
    const client = createHttpClient(h.env);
    await client.get('/a/');
    h.store.setItem('access', 'access-2');
    h.now += 500;
    await client.get('/b/');
    h.now += 600;
    await client.get('/c/');
    expect(h.calls.map((c) => c.init.headers.Authorization)).toEqual(['Bearer access-1', 'Bearer access-1', 'Bearer access-2']);
  });

  it('builds query strings, skipping empty values and repeating arrays', async () => {
    const h = harness();
    const client = createHttpClient(h.env);
    await client.get('/iotapp/devices/', { query: { page: 1, name: undefined, ids: [1, 2], isParent: false, q: null } });
    expect(h.calls[0]?.url).toBe('/iotapp/devices/?page=1&ids=1&ids=2&isParent=false');
  });

  it('returns null for 204 and parsed JSON otherwise', async () => {
    const h = harness();
    h.routes.set('/x/', [{ status: 204 }]);
    const client = createHttpClient(h.env);
    await expect(client.del('/x/')).resolves.toBeNull();
    await expect(client.get('/y/')).resolves.toEqual({ ok: true });
  });

  it('retries once with a new CSRF cookie when the server says the token is wrong', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/iotapp/x/', [
      { status: 403, body: { detail: 'CSRF token missing or incorrect', code: 'csrf_failed' } },
      { status: 200, body: { ok: 1 } },
    ]);
    const client = createHttpClient(h.env);
    await expect(client.post('/iotapp/x/', {})).resolves.toEqual({ ok: 1 });
    expect(h.calls.map((c) => c.url)).toEqual(['/iotapp/x/', '/api/auth/csrf/', '/iotapp/x/']);
    expect(h.toasts).toEqual([]);
  });
});

describe('interceptors (SPEC 8.2)', () => {
  it('401 on /current-login/: refreshes once with the stored refresh token, stores the new pair and retries', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/current-login/', [
      { status: 401, body: { detail: 'expired' } },
      { status: 200, body: { user: { id: 1 }, access: 'A3', refresh: 'R3' } },
    ]);
    h.routes.set('/api/token/refresh/', [{ status: 200, body: { access: 'access-2', refresh: 'refresh-2' } }]);
    const client = createHttpClient(h.env);
    await expect(client.get('/current-login/')).resolves.toMatchObject({ access: 'A3' });
    expect(h.calls.map((c) => c.url)).toEqual(['/current-login/', '/api/token/refresh/', '/current-login/']);
    expect(JSON.parse(h.calls[1]?.init.body as string)).toEqual({ refresh: 'refresh-1' });
    expect(h.calls[2]?.init.headers.Authorization).toBe('Bearer access-2');
    expect(h.store.getItem('access')).toBe('access-2');
    expect(h.store.getItem('refresh')).toBe('refresh-2');
    expect(h.navigations).toEqual([]);
    expect(h.toasts).toEqual([]);
  });

  it('401 on /current-login/: refreshes only once, even when the retry fails again', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/current-login/', [{ status: 401, body: { detail: 'no' } }]);
    h.routes.set('/api/token/refresh/', [{ status: 200, body: { access: 'a2', refresh: 'r2' } }]);
    const client = createHttpClient(h.env);
    await expect(client.get('/current-login/')).rejects.toMatchObject({ status: 401 });
    expect(h.calls.filter((c) => c.url === '/api/token/refresh/')).toHaveLength(1);
  });

  it('a failed refresh rejects with the response data of the refresh call', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/current-login/', [{ status: 401, body: { detail: 'expired' } }]);
    h.routes.set('/api/token/refresh/', [{ status: 400, body: { detail: 'body.refresh: Too small', code: 'validation_error' } }]);
    const client = createHttpClient(h.env);
    const error = (await client.get('/current-login/').catch((e: unknown) => e)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.data).toEqual({ detail: 'body.refresh: Too small', code: 'validation_error' });
    expect(error.url).toBe('/api/token/refresh/');
    expect(h.calls.filter((c) => c.url === '/current-login/')).toHaveLength(1);
  });

  it('401 on the refresh call: clears storage but the kept keys, logs out, goes to login (and rejects with its data)', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/current-login/', [{ status: 401, body: { detail: 'expired' } }]);
    h.routes.set('/api/token/refresh/', [{ status: 401, body: { detail: 'Session expired', code: 'token_not_valid' } }]);
    const client = createHttpClient(h.env);
    const error = (await client.get('/current-login/').catch((e: unknown) => e)) as HttpError;
    expect(error.data).toEqual({ detail: 'Session expired', code: 'token_not_valid' });
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.sessionEnds).toBe(1);
    expect(h.navigations).toEqual(['/customeradmin/login/?next=%2Ftickets%3Fstatus%3DOPEN']);
  });

  it('a 401 of a call under way while the user logs out ends the session without a login-with-next redirect', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/iotapp/user-dashboards/', [{ status: 401, body: { detail: 'Authentication credentials were not provided.' } }]);
    const client = createHttpClient(h.env);
    client.beginSignOut();
    const error = (await client.get('/iotapp/user-dashboards/').catch((e: unknown) => e)) as HttpError;
    expect(error.status).toBe(401);
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.navigations).toEqual([]);
  });

  it('401 on /current-login/ without a refresh token rejects with the 401 data and calls no refresh', async () => {
    const h = harness({ 'x-log-role': 'auth' });
    h.routes.set('/current-login/', [{ status: 401, body: { detail: 'Authentication credentials were not provided.' } }]);
    const client = createHttpClient(h.env);
    const error = (await client.get('/current-login/').catch((e: unknown) => e)) as HttpError;
    expect(error.data).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(h.calls.map((c) => c.url)).toEqual(['/current-login/']);
    expect(h.navigations).toEqual([]);
  });

  it('parallel 401s on /current-login/ share one refresh', async () => {
    const h = harness(SIGNED_IN);
    let first = true;
    h.routes.set('/current-login/', (call) => {
      if (call.init.headers.Authorization === 'Bearer access-1') return { status: 401, body: { detail: 'expired' } };
      const body = { user: { id: 1 }, access: 'x', refresh: 'y', first };
      first = false;
      return { status: 200, body };
    });
    h.routes.set('/api/token/refresh/', [{ status: 200, body: { access: 'access-2', refresh: 'refresh-2' } }]);
    const client = createHttpClient(h.env);
    await Promise.all([client.get('/current-login/'), client.get('/current-login/')]);
    expect(h.calls.filter((c) => c.url === '/api/token/refresh/')).toHaveLength(1);
  });

  it('401 elsewhere: clears storage except cookie-consent, x-log-role, fab-state, config-theme, logs out, goes to login with next', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/iotapp/devices/', [{ status: 401, body: { detail: 'Authentication credentials were not provided.' } }]);
    const client = createHttpClient(h.env);
    await expect(client.get('/iotapp/devices/')).rejects.toMatchObject({ status: 401 });
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.sessionEnds).toBe(1);
    expect(h.navigations).toEqual(['/customeradmin/login/?next=%2Ftickets%3Fstatus%3DOPEN']);
    expect(h.calls.map((c) => c.url)).toEqual(['/iotapp/devices/']);
    expect(h.toasts).toEqual([]);
  });

  it('401 elsewhere: many failing calls together navigate once', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/a/', [{ status: 401 }]);
    const client = createHttpClient(h.env);
    await Promise.allSettled([client.get('/a/'), client.get('/a/'), client.get('/a/')]);
    expect(h.navigations).toHaveLength(1);
  });

  it('401 elsewhere while already on a login page: clears storage but stays', async () => {
    const h = harness(SIGNED_IN);
    h.setLocation({ pathname: '/auth/login', search: '' });
    h.routes.set('/iotapp/customer-settings/', [{ status: 401 }]);
    const client = createHttpClient(h.env);
    await client.get('/iotapp/customer-settings/').catch(() => undefined);
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.navigations).toEqual([]);
  });

  it('401 of a sign-in call (wrong password) is the form’s business: no logout', async () => {
    const h = harness({ 'x-log-role': 'auth' });
    h.setLocation({ pathname: '/auth/login', search: '' });
    h.routes.set('/api/auth/login/', [{ status: 401, body: { detail: 'Invalid credentials' } }]);
    const client = createHttpClient(h.env);
    const error = (await client.post('/api/auth/login/', {}, { toast: false }).catch((e: unknown) => e)) as HttpError;
    expect(error.detail).toBe('Invalid credentials');
    expect(h.sessionEnds).toBe(0);
    expect(h.navigations).toEqual([]);
  });

  it('511: checks the current login and logs out when that is 401', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/iotapp/x/', [{ status: 511, statusText: 'Network Authentication Required' }]);
    h.routes.set('/current-login/', [{ status: 401 }]);
    const client = createHttpClient(h.env);
    await expect(client.get('/iotapp/x/')).rejects.toMatchObject({ status: 511 });
    expect(h.calls.map((c) => c.url)).toEqual(['/iotapp/x/', '/current-login/']);
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.navigations).toEqual(['/customeradmin/login/?next=%2Ftickets%3Fstatus%3DOPEN']);
    expect(h.toasts).toEqual([['error', 'Network Authentication Required']]);
  });

  it('511: stays signed in when the current login still answers', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/iotapp/x/', [{ status: 511 }]);
    h.routes.set('/current-login/', [{ status: 200, body: { user: {}, access: 'a', refresh: 'r' } }]);
    const client = createHttpClient(h.env);
    await client.get('/iotapp/x/').catch(() => undefined);
    expect(h.calls.map((c) => c.url)).toEqual(['/iotapp/x/', '/current-login/']);
    expect(h.store.getItem('user')).not.toBeNull();
    expect(h.navigations).toEqual([]);
  });

  it('400 on a login-with-next URL: clears storage and goes to login', async () => {
    const h = harness({ ...SIGNED_IN });
    h.setLocation({ pathname: '/customeradmin/login/', search: '?next=%2Fassets' });
    h.routes.set('/iotapp/customer-logo/', [{ status: 400, body: { detail: 'bad' } }]);
    const client = createHttpClient(h.env);
    await client.get('/iotapp/customer-logo/').catch(() => undefined);
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.navigations).toEqual(['/customeradmin/login/']);
  });

  it('400 on a login-with-next URL from the sign-in form itself: clears storage, keeps the form (and its message)', async () => {
    const h = harness({ ...SIGNED_IN });
    h.setLocation({ pathname: '/auth/login', search: '?next=%2Fassets' });
    h.routes.set('/api/auth/login/', [{ status: 400, body: { detail: 'Invalid Captcha' } }]);
    const client = createHttpClient(h.env);
    const error = (await client.post('/api/auth/login/', {}, { toast: false }).catch((e: unknown) => e)) as HttpError;
    expect(error.detail).toBe('Invalid Captcha');
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.navigations).toEqual([]);
  });

  it('400 elsewhere leaves storage alone', async () => {
    const h = harness({ ...SIGNED_IN });
    h.setLocation({ pathname: '/auth/login', search: '' });
    h.routes.set('/x/', [{ status: 400 }]);
    const client = createHttpClient(h.env);
    await client.get('/x/').catch(() => undefined);
    expect(h.store.getItem('user')).not.toBeNull();
    expect(h.navigations).toEqual([]);
  });

  it.each([500, 502, 503, 504])('%i with a body containing "502 Bad Gateway" goes to the offline page with a returnUrl', async (status) => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status, raw: '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>' }]);
    const client = createHttpClient(h.env);
    await expect(client.get('/x/')).rejects.toMatchObject({ status });
    expect(h.navigations).toEqual([`/offline.html?returnUrl=%2Ftickets%3Fstatus%3DOPEN&reason=${status}`]);
    expect(h.toasts).toEqual([]);
    expect(h.timers).toEqual([]);
  });

  it('a 502 without that body is handled by the generic path, not the offline page', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status: 502, statusText: 'Bad Gateway', body: { detail: 'upstream' } }]);
    const client = createHttpClient(h.env);
    await client.get('/x/').catch(() => undefined);
    expect(h.navigations.some((n) => n.startsWith('/offline.html'))).toBe(false);
  });

  it('421: clears storage and goes to /tenant-not-found', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status: 421, body: { detail: 'Tenant not found', code: 'tenant_not_found' } }]);
    const client = createHttpClient(h.env);
    await expect(client.get('/x/')).rejects.toMatchObject({ status: 421 });
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.navigations).toEqual(['/tenant-not-found']);
    expect(h.toasts).toEqual([]);
  });

  it('421 while already on /tenant-not-found: clears storage, no navigation', async () => {
    const h = harness(SIGNED_IN);
    h.setLocation({ pathname: '/tenant-not-found' });
    h.routes.set('/x/', [{ status: 421 }]);
    const client = createHttpClient(h.env);
    await client.get('/x/').catch(() => undefined);
    expect(storeContents(h.store)).toEqual(KEPT);
    expect(h.navigations).toEqual([]);
  });
});

describe('generic error toasts (SPEC 8.1)', () => {
  const STATUS_TEXT: Record<number, string> = {
    304: 'Not Modified',
    400: 'Bad Request',
    403: 'Forbidden',
    404: 'Not Found',
    405: 'Method Not Allowed',
    406: 'Not Acceptable',
    413: 'Payload Too Large',
    415: 'Unsupported Media Type',
    417: 'Expectation Failed',
    501: 'Not Implemented',
    503: 'Service Unavailable',
    511: 'Network Authentication Required',
  };
  const ROWS = Object.keys(STATUS_TEXT).map(Number);

  it.each(ROWS)('%i shows the status text', async (status) => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status, statusText: STATUS_TEXT[status], body: status === 304 ? undefined : { detail: 'server detail' } }]);
    h.routes.set('/current-login/', [{ status: 200, body: {} }]);
    const client = createHttpClient(h.env);
    await client.get('/x/').catch(() => undefined);
    expect(h.toasts).toEqual([['error', STATUS_TEXT[status]]]);
  });

  it.each(ROWS)('%i shows the caller message when given', async (status) => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status, statusText: STATUS_TEXT[status] }]);
    h.routes.set('/current-login/', [{ status: 200, body: {} }]);
    const client = createHttpClient(h.env);
    await client.get('/x/', { errorMessage: 'Failed to load preview!' }).catch(() => undefined);
    expect(h.toasts).toEqual([['error', 'Failed to load preview!']]);
  });

  it('uses the standard reason phrase when the response has no status text (HTTP/2)', () => {
    expect(genericErrorMessage(404, '', null)).toBe('Not Found');
    expect(genericErrorMessage(413, '', null)).toBe('Payload Too Large');
  });

  it('401 shows only a caller message', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status: 401, statusText: 'Unauthorized' }]);
    const client = createHttpClient(h.env);
    await client.get('/x/').catch(() => undefined);
    expect(h.toasts).toEqual([]);
    const h2 = harness(SIGNED_IN);
    h2.routes.set('/x/', [{ status: 401, statusText: 'Unauthorized' }]);
    await createHttpClient(h2.env)
      .get('/x/', { errorMessage: 'Please sign in again' })
      .catch(() => undefined);
    expect(h2.toasts).toEqual([['error', 'Please sign in again']]);
  });

  it('409: caller message, else the server detail, else the status text', async () => {
    const run = async (reply: Reply, errorMessage?: string) => {
      const h = harness(SIGNED_IN);
      h.routes.set('/x/', [reply]);
      await createHttpClient(h.env)
        .post('/x/', {}, { errorMessage })
        .catch(() => undefined);
      return h.toasts;
    };
    expect(await run({ status: 409, statusText: 'Conflict', body: { detail: 'User already exists' } }, 'Assets Already Exists')).toEqual([
      ['error', 'Assets Already Exists'],
    ]);
    expect(await run({ status: 409, statusText: 'Conflict', body: { detail: 'User already exists' } })).toEqual([
      ['error', 'User already exists'],
    ]);
    expect(await run({ status: 409, statusText: 'Conflict' })).toEqual([['error', 'Conflict']]);
  });

  it("500 shows 'Failed to connect server', or the caller message", async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status: 500, statusText: 'Internal Server Error', body: { detail: 'Internal Server Error' } }]);
    const client = createHttpClient(h.env);
    await client.get('/x/').catch(() => undefined);
    await client.get('/x/', { errorMessage: 'Failed to update Settings' }).catch(() => undefined);
    expect(h.toasts).toEqual([
      ['error', 'Failed to connect server'],
      ['error', 'Failed to update Settings'],
    ]);
  });

  it('502 shows the status text, then goes to /login after 1 second', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status: 502, statusText: 'Bad Gateway', body: { detail: 'x' } }]);
    const client = createHttpClient(h.env);
    await client.get('/x/').catch(() => undefined);
    expect(h.toasts).toEqual([['error', 'Bad Gateway']]);
    expect(h.navigations).toEqual([]);
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    h.timers[0]?.fn();
    expect(h.navigations).toEqual(['/login']);
  });

  it('504 is not shown through the generic path', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status: 504, statusText: 'Gateway Timeout', body: { detail: 'x' } }]);
    await createHttpClient(h.env)
      .get('/x/', { errorMessage: 'ignored' })
      .catch(() => undefined);
    expect(h.toasts).toEqual([]);
  });

  it('toast: false leaves the message to the caller', async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', [{ status: 400, statusText: 'Bad Request' }]);
    await createHttpClient(h.env)
      .get('/x/', { toast: false })
      .catch(() => undefined);
    expect(h.toasts).toEqual([]);
  });

  it("a network failure shows 'Failed to connect server'", async () => {
    const h = harness(SIGNED_IN);
    h.routes.set('/x/', []);
    const error = (await createHttpClient(h.env)
      .get('/x/')
      .catch((e: unknown) => e)) as HttpError;
    expect(error.status).toBe(0);
    expect(h.toasts).toEqual([['error', 'Failed to connect server']]);
  });
});

describe('proactive token refresh', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness(SIGNED_IN);
  });
  afterEach(() => {
    h.timers = [];
  });

  it('plans a refresh a minute before the access token expires and stores the new pair', async () => {
    const exp = Math.floor(h.now / 1000) + 15 * 60;
    const client = createHttpClient(h.env);
    h.routes.set('/api/token/refresh/', [{ status: 200, body: { access: token(exp + 900, 'b'), refresh: 'refresh-2' } }]);
    client.storeTokens({ access: token(exp), refresh: 'refresh-1' });
    expect(h.timers).toHaveLength(1);
    expect(h.timers[0]?.ms).toBe(15 * 60_000 - REFRESH_MARGIN_MS);
    h.now += h.timers[0]?.ms ?? 0;
    h.timers[0]?.fn();
    await vi.waitFor(() => expect(h.store.getItem('refresh')).toBe('refresh-2'));
    expect(JSON.parse(h.calls[0]?.init.body as string)).toEqual({ refresh: 'refresh-1' });
    // and the next one is planned from the new token
    expect(h.timers.at(-1)?.ms).toBe(15 * 60_000);
  });

  it('refreshes at once when the token is already past its margin', () => {
    const client = createHttpClient(h.env);
    client.storeTokens({ access: token(Math.floor(h.now / 1000) + 10), refresh: 'r' });
    expect(h.timers[0]?.ms).toBe(0);
  });

  it('skips the planned refresh when another tab has already refreshed', async () => {
    const client = createHttpClient(h.env);
    const exp = Math.floor(h.now / 1000) + 30;
    client.storeTokens({ access: token(exp), refresh: 'refresh-1' });
    // the other tab wrote a fresh pair
    h.now += 1500;
    h.store.setItem('access', token(exp + 900, 'other'));
    h.store.setItem('refresh', 'refresh-other');
    h.timers.at(-1)?.fn();
    await vi.waitFor(() => expect(h.timers.at(-1)?.ms).toBeGreaterThan(800_000));
    expect(h.calls).toEqual([]);
  });

  it('a refresh after a 401 is skipped only when another tab refreshed in the meantime', async () => {
    const client = createHttpClient(h.env);
    const exp = Math.floor(h.now / 1000) + 900;
    client.storeTokens({ access: token(exp), refresh: 'refresh-1' });
    h.routes.set('/api/token/refresh/', [{ status: 200, body: { access: token(exp + 10, 'b'), refresh: 'refresh-2' } }]);
    await client.refreshTokens();
    expect(h.calls.map((c) => c.url)).toEqual(['/api/token/refresh/']);
  });

  it('refreshes short-lived tokens at three quarters of their life, never in a tight loop', async () => {
    const client = createHttpClient(h.env);
    const now = Math.floor(h.now / 1000);
    h.routes.set('/api/token/refresh/', [{ status: 200, body: { access: token(now + 60, 'b', now), refresh: 'r2' } }]);
    client.storeTokens({ access: token(now + 60, 'a', now), refresh: 'r1' });
    expect(h.timers.at(-1)?.ms).toBe(45_000);
    h.now += 45_000;
    h.timers.at(-1)?.fn();
    await vi.waitFor(() => expect(h.store.getItem('refresh')).toBe('r2'));
    // right after a refresh, the next one waits at least the minimum interval
    expect(h.timers.at(-1)?.ms).toBeGreaterThanOrEqual(10_000);
  });

  it('no timer without a token that carries an expiry', () => {
    const client = createHttpClient(h.env);
    client.storeTokens({ access: 'opaque', refresh: 'r' });
    expect(h.timers).toEqual([]);
  });
});
