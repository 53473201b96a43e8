import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebApp } from './web.ts';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;

describe('web app files', () => {
  let dist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'sitewatch-web-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>Sitewatch</title>');
    await writeFile(join(dist, 'assets/app-abc123.js'), SCRIPT);
    await writeFile(join(dist, 'assets/app-abc123.js.br'), brotliCompressSync(SCRIPT));
    await writeFile(join(dist, 'assets/app-abc123.js.gz'), gzipSync(SCRIPT));
    await mkdir(join(dist, '.vite'));
    await writeFile(join(dist, '.vite/manifest.json'), '{"src/main.tsx":{"file":"assets/app-abc123.js"}}');
    app = Fastify();
    await registerWebApp(app, dist);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('sends hashed assets precompressed, brotli first, with the immutable cache header', async () => {
    const br = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 10);

    const gz = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers page routes with index.html that the browser revalidates', async () => {
    const page = await app.inject({ url: '/tickets/all', headers: { 'accept-encoding': 'gzip' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('Sitewatch');
  });

  it('never sends a dot-folder of the build (its manifest of source modules)', async () => {
    const manifest = await app.inject({ url: '/.vite/manifest.json' });
    expect(manifest.body).not.toContain('src/main.tsx');
    expect(manifest.headers['content-type']).toMatch(/text\/html/);
  });

  it('keeps API paths out of the web app', async () => {
    const api = await app.inject({ url: '/iotapp/nothing/' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Route GET /iotapp/nothing/ not found' });
  });
});
