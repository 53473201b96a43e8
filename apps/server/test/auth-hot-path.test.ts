import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.ts';

describe('the /current-login/ hot path', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('costs no database statement once the session is cached, and hands out the same tokens', async () => {
    const client = await t.login('customeradmin');
    const warm = await client.get('/current-login/', { bearer: false } as never);
    expect(warm.statusCode).toBe(200);

    const executor = t.db.getExecutor();
    const spy = vi.spyOn(executor, 'executeQuery');
    const hot = await client.get('/current-login/', { bearer: false } as never);
    const statements = spy.mock.calls.length;
    spy.mockRestore();

    expect(hot.statusCode).toBe(200);
    expect(statements).toBe(0);
    expect(hot.body).toBe(warm.body);
    expect(hot.json().access).toBe(warm.json().access);
    expect(hot.json().refresh).toBe(warm.json().refresh);
    expect(hot.json().user.groups[0].permissions.length).toBeGreaterThan(0);
  });

  it('shows a change of their own profile at once', async () => {
    const client = await t.login('customeradmin');
    expect((await client.get('/current-login/')).json().user.firstname).not.toBe('Renamed');
    const profile = (await client.get('/api/auth/profile/')).json();
    const saved = await client.put('/api/auth/profile/', {
      firstname: 'Renamed',
      lastname: profile.lastname,
      email: profile.email,
      mobile: profile.mobile,
      notificationConfig: profile.notificationConfig,
    });
    expect(saved.statusCode).toBe(200);
    expect((await client.get('/current-login/')).json().user.firstname).toBe('Renamed');
  });

  it('mints a new pair after a refresh moved the session to the next generation', async () => {
    const client = await t.login('customeradmin');
    const before = (await client.get('/current-login/')).json();
    const refreshed = await client.post('/api/token/refresh/', { refresh: before.refresh });
    expect(refreshed.statusCode).toBe(200);
    const after = (await client.get('/current-login/', { bearer: false } as never)).json();
    expect(after.refresh).not.toBe(before.refresh);
  });

  it('sends a browser its cached answer compressed as it asks, the same answer as uncompressed', async () => {
    const client = await t.login('customeradmin');
    const plain = await client.get('/current-login/', { bearer: false } as never);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const asBrowser = { bearer: false, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } } as never;
    const first = await client.get('/current-login/', asBrowser);
    const again = await client.get('/current-login/', asBrowser);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(first.rawPayload).toString()).toBe(plain.body);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);

    const gzip = await client.get('/current-login/', { bearer: false, headers: { 'accept-encoding': 'gzip' } } as never);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const identity = await client.get('/current-login/', { bearer: false, headers: { 'accept-encoding': 'identity' } } as never);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(plain.body);
  });
});
