import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createTestApp, PASSWORD, type TestApp, type TestClient } from './support/harness.ts';

/** A sign-in attempt with a wrong password, claiming another client address each time. */
const attempt = (client: TestClient, forwardedFor: string) =>
  client.request({
    method: 'POST',
    url: '/api/auth/login/',
    payload: { username: 'nobody', password: 'wrong', captchaId: 'x', captcha: 'x', role: 'auth' },
    headers: { 'x-forwarded-for': forwardedFor },
  });

const statuses = async (client: TestClient, count: number) => {
  const codes: number[] = [];
  for (let i = 0; i < count; i++) codes.push((await attempt(client, `198.51.100.${i + 1}`)).statusCode);
  return codes;
};

/** Signs in through a "proxy" that says the client is `clientAddress` and that the client used HTTPS. */
async function signInVia(t: TestApp, clientAddress: string) {
  const client = t.anonymous();
  const headers = { 'x-forwarded-for': clientAddress, 'x-forwarded-proto': 'https' };
  const captcha = await client.get('/api/auth/captcha/', { headers });
  const res = await client.request({
    method: 'POST',
    url: '/api/auth/login/',
    headers,
    payload: { username: 'customeradmin', password: PASSWORD, captchaId: captcha.json().captchaId, captcha: 'TESTA', role: 'auth' },
  });
  return { client, res };
}

const sessionIps = async (client: TestClient) =>
  ((await client.get('/api/auth/sessions/')).json().contents as { ip: string | null }[]).map((s) => s.ip);

const lastLoginIp = async (t: TestApp) =>
  (
    await t.db
      .selectFrom('audit_log')
      .select('ip')
      .where('action', '=', 'login.password')
      .where('username', '=', 'customeradmin')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow()
  ).ip;

const scrape = (t: TestApp, remoteAddress: string, forwardedFor?: string) =>
  t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

describe('TRUST_PROXY setting', () => {
  it('is none by default and takes addresses and CIDRs, refusing anything else', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['true', 'proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '*']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('without a trusted proxy, forwarded headers count for nothing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => t?.close());

  it('limits sign-in attempts per socket address whatever X-Forwarded-For says', async () => {
    const codes = await statuses(t.anonymous(), 8);
    expect(codes.slice(0, 5).every((c) => c !== 429)).toBe(true);
    expect(codes.slice(5)).toEqual([429, 429, 429]);
  });

  it('records the socket address in the sessions list and the audit trail, and sets no Secure cookie for X-Forwarded-Proto', async () => {
    const other = await createTestApp();
    try {
      const { client, res } = await signInVia(other, '6.6.6.6');
      expect(res.statusCode).toBe(200);
      expect((res.cookies as { name: string; secure?: boolean }[]).find((c) => c.name === 'sw_session')?.secure).toBeFalsy();
      expect(await sessionIps(client)).toEqual(['127.0.0.1']);
      expect(await lastLoginIp(other)).toBe('127.0.0.1');
    } finally {
      await other.close();
    }
  });

  it('serves /metrics to this machine only, and not when a request says it was forwarded', async () => {
    expect((await scrape(t, '127.0.0.1')).statusCode).toBe(200);
    expect((await scrape(t, '127.0.0.1', '127.0.0.1')).statusCode).toBe(403);
    expect((await scrape(t, '203.0.113.7', '127.0.0.1')).statusCode).toBe(403);
  });
});

describe('behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '5', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('limits sign-in attempts per forwarded client address', async () => {
    const client = t.anonymous();
    const spread = await statuses(client, 8);
    expect(spread).not.toContain(429);
    const same: number[] = [];
    for (let i = 0; i < 7; i++) same.push((await attempt(client, '192.0.2.50')).statusCode);
    expect(same.slice(5)).toEqual([429, 429]);
  });

  it('records the forwarded address in the sessions list and the audit trail, and marks cookies Secure behind HTTPS', async () => {
    const { client, res } = await signInVia(t, '6.6.6.6');
    expect(res.statusCode).toBe(200);
    const cookies = res.cookies as { name: string; secure?: boolean }[];
    expect(cookies.find((c) => c.name === 'sw_session')?.secure).toBe(true);
    expect(cookies.find((c) => c.name === 'csrftoken')?.secure).toBe(true);
    expect(await sessionIps(client)).toEqual(['6.6.6.6']);
    expect(await lastLoginIp(t)).toBe('6.6.6.6');
  });

  it('believes X-Forwarded-For only from the listed proxy, and serves /metrics to a forwarded local client only', async () => {
    expect((await scrape(t, '127.0.0.1', '127.0.0.1')).statusCode).toBe(200);
    expect((await scrape(t, '127.0.0.1', '203.0.113.7')).statusCode).toBe(403);
    // a client that writes its own header, past the proxy: the proxy appends the real address
    expect((await scrape(t, '127.0.0.1', '127.0.0.1, 203.0.113.7')).statusCode).toBe(403);
    // not the listed proxy: its header is not read
    expect((await scrape(t, '203.0.113.7', '127.0.0.1')).statusCode).toBe(403);
  });
});
