import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.ts';
import type { Metrics } from './registry.ts';

export { createMetrics, type Metrics } from './registry.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may scrape: with METRICS_TOKEN set, only a caller presenting it as a bearer token; without one, only a
 * caller on this machine. That is the client address as TRUST_PROXY makes it (the socket's, or what a listed proxy
 * forwarded); forwarded headers that no listed proxy vouched for mean someone else's request came through here.
 */
export function mayScrape(request: FastifyRequest, token: string | undefined): void {
  if (token) {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!given || !sameSecret(given, token)) throw unauthorized('A valid metrics token is required.');
    return;
  }
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  const vouched = (request.ips?.length ?? 1) > 1;
  const local = LOOPBACK.has(request.ip) && (!forwarded || vouched);
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
