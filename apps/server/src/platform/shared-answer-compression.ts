import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';
import { isSharedBody } from './validation.ts';

/** What @fastify/compress is given in app.ts: answers under the threshold go as they are. */
export const COMPRESSION = { threshold: 1024, encodings: ['br', 'gzip'] as Array<'br' | 'gzip'> };
/** @fastify/compress's own brotli settings, so an answer is the same bytes whichever of the two compressed it. */
const BROTLI = { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } };

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
  const negotiator = new Negotiator({ supportedValues: COMPRESSION.encodings, cache });
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
      body = encoding === 'br' ? brotliCompressSync(payload, BROTLI) : gzipSync(payload);
      variants[encoding] = body;
    }
    const vary = reply.getHeader('vary');
    if (vary === undefined) reply.header('vary', 'accept-encoding');
    else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${vary}, accept-encoding`);
    reply.header('content-encoding', encoding);
    done(null, body);
  });
}
