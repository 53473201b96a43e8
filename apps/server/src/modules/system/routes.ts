import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db.ts';

/** Liveness and readiness for load balancers and orchestrators; no tenant, no session. */
export function systemRoutes(app: FastifyInstance, opts: { db: Db; isShuttingDown: () => boolean }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: { tenantless: true } };
  const status = z.object({ status: z.string() });
  r.get('/health', { config, schema: { tags: ['system'], response: { 200: status } } }, async () => ({ status: 'ok' }));
  r.get('/ready', { config, schema: { tags: ['system'], response: { 200: status, 503: status } } }, async (_request, reply) => {
    if (opts.isShuttingDown()) return reply.status(503).send({ status: 'shutting down' });
    try {
      await sql`select 1`.execute(opts.db);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'database unavailable' });
    }
  });
}
