import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.ts';
import type { Metrics } from './registry.ts';

export { createMetrics, type Metrics } from './registry.ts';

/**
 * Counts every answered request by its route pattern (never the raw URL: ids would explode the series), so it is
 * installed on the root instance before any route. Requests no route matched are 'unmatched' (404) or 'web' (the
 * web app's pages and files).
 */
export function installHttpMetrics(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? (reply.statusCode === 404 ? 'unmatched' : 'web');
    metrics.http(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may scrape: with METRICS_TOKEN set, only a caller presenting it as a bearer token; without one, only a
 * caller on this machine that did not come through a proxy (the socket address, not X-Forwarded-For, which a
 * client could write itself).
 */
export function mayScrape(request: FastifyRequest, token: string | undefined): void {
  if (token) {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!given || !sameSecret(given, token)) throw unauthorized('A valid metrics token is required.');
    return;
  }
  const local = LOOPBACK.has(request.raw.socket.remoteAddress ?? '') && !request.headers['x-forwarded-for'] && !request.headers.forwarded;
  if (!local) throw forbidden('Metrics are served only to this machine unless METRICS_TOKEN is set.');
}

/** GET /metrics in the Prometheus text format; tenantless, and refused to anonymous callers (see mayScrape). */
export function metricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  app.get(
    '/metrics',
    {
      config: { access: { tenantless: true } },
      schema: { tags: ['system'], summary: 'Prometheus metrics (bearer METRICS_TOKEN, or loopback when none is set)', hide: false },
    },
    async (request, reply) => {
      mayScrape(request, token);
      const text = await metrics.scrape();
      return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
    },
  );
}
