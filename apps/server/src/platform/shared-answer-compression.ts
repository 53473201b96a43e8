import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';
import { isSharedBody } from './validation.ts';

/**
 * What @fastify/compress is given in app.ts, and this file compresses with, so an answer is the same bytes whichever
 * of the two compressed it:
 * - answers under `threshold` go as they are;
 * - answers up to `syncThreshold` are compressed in one call. The plugin's default on two cores is 8 KB, and above it
 *   each answer got a brotli stream of its own in the thread pool: a page of ten tickets (8.8 KB) cost the server
 *   about 1.3 ms of CPU where one call costs 0.06 ms. At 64 KB one call holds the event loop about 0.3 ms;
 * - zstd first where the client takes it (current Chrome, Edge and Firefox): at its default level a page of ten
 *   tickets (8.8 KB) took 30 µs against brotli's 58 µs, and a page of 25 (24 KB) 47 µs against 115 µs, for 6 % more
 *   bytes;
 * - brotli at quality 4 (the plugin's) with a 1 MB window instead of 4 MB: a third less time for a small answer
 *   (less to set up), and the same size for the pages of 8.8 KB and 103 KB measured.
 */
export const COMPRESSION = {
  threshold: 1024,
  syncThreshold: 65_536,
  encodings: ['zstd', 'br', 'gzip'] as Array<'zstd' | 'br' | 'gzip'>,
  brotliOptions: {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_LGWIN]: 20,
    },
  },
};

/** Compressed once, a shared answer takes the smallest encoding: brotli before zstd. */
const SHARED_ENCODINGS = ['br', 'gzip'];

/**
 * Compresses a shared answer (`sharedResponse`: a tenant's settings, a session's current login) once per encoding and
 * keeps it with the answer's bytes; @fastify/compress compressed it again on every request, which made these reads
 * three to five times dearer for a browser (which always sends Accept-Encoding) than for a client that sends none.
 * The hook runs before @fastify/compress's (an instance hook before a route hook), which passes an answer that has
 * its Content-Encoding as it is.
 */
export function registerSharedAnswerCompression(app: FastifyInstance) {
  const compressed = new WeakMap<Buffer, Partial<Record<'br' | 'gzip', Buffer>>>();
  // Accept-Encoding headers come in few forms (one per browser); the cache is bounded as any header may be sent
  const seen = new Map<string, string>();
  const cache = {
    get: (key: string) => seen.get(key),
    has: (key: string) => seen.has(key),
    set(key: string, value: string) {
      if (seen.size >= 256) seen.clear();
      seen.set(key, value);
      return cache;
    },
  };
  const negotiator = new Negotiator({ supportedValues: SHARED_ENCODINGS, cache });
  app.addHook('onSend', (request, reply, payload, done) => {
    const accepted = request.headers['accept-encoding'];
    if (
      accepted === undefined ||
      !isSharedBody(payload) ||
      payload.length < COMPRESSION.threshold ||
      reply.statusCode !== 200 ||
      reply.hasHeader('content-encoding') ||
      request.headers['x-no-compression'] !== undefined
    ) {
      return done(null, payload);
    }
    // as @fastify/compress reads the header: `*` and x-gzip stand for gzip
    const encoding = negotiator.negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip'));
    if (encoding !== 'br' && encoding !== 'gzip') return done(null, payload);
    let variants = compressed.get(payload);
    if (!variants) {
      variants = {};
      compressed.set(payload, variants);
    }
    let body = variants[encoding];
    if (!body) {
      body = encoding === 'br' ? brotliCompressSync(payload, COMPRESSION.brotliOptions) : gzipSync(payload);
      variants[encoding] = body;
    }
    const vary = reply.getHeader('vary');
    if (vary === undefined) reply.header('vary', 'accept-encoding');
    else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${vary}, accept-encoding`);
    reply.header('content-encoding', encoding);
    done(null, body);
  });
}
