import { healthResponseSchema, readyResponseSchema } from '@sitewatch/contracts/system';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type DependencyCheck, readiness } from './readiness.ts';

/**
 * Liveness and readiness for load balancers and orchestrators; no tenant, no session. /health only says the
 * process answers (cheap, no I/O); /ready checks each dependency and names the one that is not ready.
 */
export function systemRoutes(app: FastifyInstance, opts: { isShuttingDown: () => boolean; dependencies: Record<string, DependencyCheck> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: { tenantless: true } };
  const status = healthResponseSchema;
  const ready = readyResponseSchema;
  r.get('/health', { config, schema: { tags: ['system'], response: { 200: status } } }, async () => ({ status: 'ok' }));
  r.get('/ready', { config, schema: { tags: ['system'], response: { 200: ready, 503: ready } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (opts.isShuttingDown()) return reply.status(503).send({ status: 'shutting down', checks: {} });
    const result = await readiness(opts.dependencies);
    if (result.ready) return { status: 'ready', checks: result.checks };
    return reply.status(503).send({ status: `not ready: ${result.failing.join(', ')}`, checks: result.checks });
  });
}
