import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raise } from './helpdesk-fixtures.ts';
import { createTestApp, type TestApp } from './support/harness.ts';

describe('compressed answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const client = await t.login('customeradmin');
    for (let i = 0; i < 25; i++) await raise(client, { description: `Fuel pump ${i} reads low; ${'checked on site. '.repeat(30)}` });
  });
  afterAll(async () => t.close());

  // a list compressed in one call (over the plugin's default of 8 KB on two cores) and the API description, which
  // is over the one-call limit and goes through a compression stream
  it.each(['/helpdesk/tickets/?page=1&limit=25', '/api/docs/json'])(
    'sends %s compressed as asked, the same answer as uncompressed',
    async (url) => {
      const client = await t.login('customeradmin');
      const plain = await client.get(url, { headers: { 'accept-encoding': 'identity' } } as never);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const zstd = await client.get(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } } as never);
      expect(zstd.headers['content-encoding']).toBe('zstd');
      expect(zstd.headers.vary).toMatch(/accept-encoding/i);
      expect(zstdDecompressSync(zstd.rawPayload).toString()).toBe(plain.body);
      const br = await client.get(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } } as never);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const gzip = await client.get(url, { headers: { 'accept-encoding': 'gzip' } } as never);
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
      expect(plain.body.length).toBeGreaterThan(url.startsWith('/api/docs') ? 65_536 : 8_192);
    },
  );
});
