import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createCsrf } from './csrf.ts';
import { hashPassword, isCommonPassword, verifyPassword } from './passwords.ts';
import { createTokenSigner } from './tokens.ts';

const fakeRequest = (method: string, cookie?: string, header?: string) =>
  ({ method, cookies: cookie ? { csrftoken: cookie } : {}, headers: header ? { 'x-csrftoken': header } : {} }) as never;

/**
 * The token with the first character of its signature changed: its last character carries two unused bits, so
 * changing the last ones could leave the signature's bytes as they were.
 */
const tampered = (token: string) => {
  const at = token.lastIndexOf('.') + 1;
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
};

describe('CSRF tokens', () => {
  const secret = randomBytes(32);
  const csrf = createCsrf(secret, false);
  const issued = (() => {
    let value = '';
    csrf.ensureCookie(fakeRequest('GET'), { setCookie: (_n: string, v: string) => (value = v) } as never);
    return value;
  })();

  it('lets safe methods through without a header', () => {
    expect(() => csrf.check(fakeRequest('GET'))).not.toThrow();
  });
  it('accepts an unsafe method whose header repeats a signed cookie', () => {
    expect(() => csrf.check(fakeRequest('POST', issued, issued))).not.toThrow();
  });
  it('refuses a missing header, a different header and a cookie not signed by this install', () => {
    expect(() => csrf.check(fakeRequest('POST', issued))).toThrow(/CSRF/);
    expect(() => csrf.check(fakeRequest('DELETE', issued, `${issued}x`))).toThrow(/CSRF/);
    const forged = 'abc.def';
    expect(() => csrf.check(fakeRequest('PUT', forged, forged))).toThrow(/CSRF/);
    const otherInstall = createCsrf(randomBytes(32), false);
    expect(() => otherInstall.check(fakeRequest('POST', issued, issued))).toThrow(/CSRF/);
  });
  it('checks a signature once, and still refuses a token with the same nonce and another signature', () => {
    for (let i = 0; i < 3; i++) expect(() => csrf.check(fakeRequest('POST', issued, issued))).not.toThrow();
    const [nonce, signature] = issued.split('.') as [string, string];
    const tampered = `${nonce}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect(() => csrf.check(fakeRequest('POST', tampered, tampered))).toThrow(/CSRF/);
    let reissued = '';
    csrf.ensureCookie(fakeRequest('GET', tampered), { setCookie: (_n: string, v: string) => (reissued = v) } as never);
    expect(reissued).not.toBe('');
    expect(reissued).not.toBe(tampered);
  });
});

describe('tokens', () => {
  const signer = createTokenSigner(randomBytes(32), 15);
  it('round-trips an access token and refuses it as another kind', async () => {
    const access = await signer.signAccess({ userId: 7, tenantId: 3, sessionId: 's-1' });
    expect(await signer.verifyAccess(access)).toMatchObject({ sub: '7', tid: 3, sid: 's-1' });
    expect(await signer.verifyRefresh(access)).toBeNull();
    expect(await signer.verifyMfa(access)).toBeNull();
  });
  it('refuses a token signed with another secret or tampered with', async () => {
    const other = createTokenSigner(randomBytes(32), 15);
    const token = await other.signAccess({ userId: 1, tenantId: 1, sessionId: 's' });
    expect(await signer.verifyAccess(token)).toBeNull();
    const mine = await signer.signRefresh({ userId: 1, tenantId: 1, sessionId: 's', gen: 0 });
    expect(await signer.verifyRefresh(tampered(mine))).toBeNull();
  });
  it('remembers a checked access token only until it expires, and never a tampered one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const access = await signer.signAccess({ userId: 9, tenantId: 3, sessionId: 's-9' });
      expect(await signer.verifyAccess(access)).toMatchObject({ sub: '9' });
      expect(await signer.verifyAccess(access)).toMatchObject({ sub: '9' }); // from memory
      expect(await signer.verifyAccess(tampered(access))).toBeNull();
      vi.setSystemTime(Date.now() + 16 * 60_000);
      expect(await signer.verifyAccess(access)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('passwords', () => {
  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'wrong')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });
  it('knows common passwords', () => {
    expect(isCommonPassword('Password123')).toBe(true);
    expect(isCommonPassword('tangerine-orbit-42')).toBe(false);
  });
});

describe('configuration', () => {
  it('has embedded defaults and refuses a fixed captcha in production', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.mqtt.port).not.toBe(1883);
    expect(config.tenancy.defaultHosts).toContain('localhost');
    expect(() => loadConfig({ NODE_ENV: 'production', CAPTCHA_FIXED_ANSWER: 'X' })).toThrow(/production/);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
  });
});
