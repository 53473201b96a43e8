import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { JSON_ANSWER_POLICY, registerSecurityHeaders, securityHeaders } from './security-headers.ts';

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

  it('go out with every response, found or not: a JSON answer with a policy that allows nothing', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, options);
    app.get('/x', async () => ({ ok: true }));
    const found = await app.inject({ url: '/x' });
    const missing = await app.inject({ url: '/nothing' });
    for (const res of [found, missing]) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy']).toBe(JSON_ANSWER_POLICY);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      // document-only headers stay off data
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(res.headers['x-xss-protection']).toBeUndefined();
    }
    await app.close();
  });

  it('give a page and any other answer the whole set, and keep a policy the route set', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, options);
    app.get('/page', async (_request, reply) => reply.type('text/html').send('<!doctype html><p>hi</p>'));
    app.get('/file', async (_request, reply) =>
      reply.type('text/plain').header('Content-Security-Policy', "default-src 'none'; sandbox").send('x'),
    );
    const page = await app.inject({ url: '/page' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const file = await app.inject({ url: '/file' });
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cross-origin-opener-policy']).toBe('same-origin');
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
    expect(asset.headers['referrer-policy']).toBeUndefined();
    expect((await app.inject({ url: '/assets' })).headers['content-security-policy']).toBe(JSON_ANSWER_POLICY);
    await app.close();
  });
});
