import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders, securityHeaders } from './security-headers.ts';

const options = {
  contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], frameAncestors: ["'self'"] } },
  frameguard: false as const,
  hsts: false,
};

describe('security headers', () => {
  it('are computed once from the helmet options', () => {
    const headers = securityHeaders(options);
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBeUndefined();
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['x-powered-by']).toBeUndefined();
  });

  it('go out with every response, found or not', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, options);
    app.get('/x', async () => ({ ok: true }));
    const found = await app.inject({ url: '/x' });
    const missing = await app.inject({ url: '/nothing' });
    for (const res of [found, missing]) {
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    await app.close();
  });

  it('leave hashed files with only the headers that act on them', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, options);
    app.get('/assets/app-1.js', async () => 'x');
    const asset = await app.inject({ url: '/assets/app-1.js' });
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(asset.headers['content-security-policy']).toBeUndefined();
    expect((await app.inject({ url: '/assets' })).headers['content-security-policy']).toBeDefined();
    await app.close();
  });
});
