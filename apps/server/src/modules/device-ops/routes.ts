import {
  accessEventListSchema,
  accessEventQuerySchema,
  diagnosticAttachSchema,
  diagnosticRunInputSchema,
  diagnosticRunListSchema,
  diagnosticRunQuerySchema,
  diagnosticRunSchema,
  diagnosticTargetListSchema,
  diagnosticTargetQuerySchema,
  doorListQuerySchema,
  doorListSchema,
  idParamSchema,
  routerListQuerySchema,
  routerListSchema,
  rtuListQuerySchema,
  rtuListSchema,
  rtuSiteSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { RunRow } from './repository.ts';
import type { DeviceOpsService } from './service.ts';

const emptyQuery = z.strictObject({});

/** A page of another origin must not open a socket with the user's cookie (as the push hub's /ws). */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/** /access-control, /router, /rtu-multisite, eth-single-site/view/{id} and /diagnostics. */
export function deviceOpsRoutes(app: FastifyInstance, opts: { ops: DeviceOpsService; websocket: boolean }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ops } = opts;
  const tags = ['device-ops'];

  r.get(
    '/api/device-ops/access/doors/',
    { schema: { tags, querystring: doorListQuerySchema, response: { 200: doorListSchema } } },
    async (req) => ops.doors(requireAuth(req), req.query),
  );
  r.get(
    '/api/device-ops/access/events/',
    { schema: { tags, querystring: accessEventQuerySchema, response: { 200: accessEventListSchema } } },
    async (req) => ops.events(requireAuth(req), req.query),
  );
  r.get(
    '/api/device-ops/routers/',
    { schema: { tags, querystring: routerListQuerySchema, response: { 200: routerListSchema } } },
    async (req) => ops.routers(requireAuth(req), req.query),
  );
  r.get('/api/device-ops/rtus/', { schema: { tags, querystring: rtuListQuerySchema, response: { 200: rtuListSchema } } }, async (req) =>
    ops.rtus(requireAuth(req), req.query),
  );
  r.get('/api/device-ops/rtus/sites/:id/', { schema: { tags, params: idParamSchema, response: { 200: rtuSiteSchema } } }, async (req) =>
    ops.rtuSite(requireAuth(req), req.params.id),
  );
  r.get(
    '/api/device-ops/diagnostics/targets/',
    { schema: { tags, querystring: diagnosticTargetQuerySchema, response: { 200: diagnosticTargetListSchema } } },
    async (req) => ops.targets(requireAuth(req), req.query),
  );
  r.get(
    '/api/device-ops/diagnostics/runs/',
    { schema: { tags, querystring: diagnosticRunQuerySchema, response: { 200: diagnosticRunListSchema } } },
    async (req) => ops.runs(requireAuth(req), req.query),
  );
  r.post(
    '/api/device-ops/diagnostics/runs/',
    {
      preHandler: [permissionGuard('view_device'), permissionGuard('run_diagnostics')],
      schema: { tags, body: diagnosticRunInputSchema, response: { 201: diagnosticRunSchema } },
    },
    async (req, reply) => reply.status(201).send(await ops.start(requireAuth(req), req.body)),
  );
  r.get(
    '/api/device-ops/diagnostics/runs/:id/',
    { schema: { tags, params: idParamSchema, response: { 200: diagnosticRunSchema } } },
    async (req) => ops.run(requireAuth(req), req.params.id),
  );
  r.post(
    '/api/device-ops/diagnostics/runs/:id/attach/',
    {
      preHandler: [permissionGuard('view_device'), permissionGuard('run_diagnostics')],
      schema: { tags, params: idParamSchema, body: diagnosticAttachSchema, response: { 200: diagnosticRunSchema } },
    },
    async (req) => ops.attach(requireAuth(req), req.params.id, req.body.ticketId),
  );

  if (!opts.websocket) return;
  // The run's output live: JSON messages `{type:'line',text}` then `{type:'end',status}`; the socket then closes.
  const runs = new WeakMap<FastifyRequest, RunRow>();
  r.get(
    '/api/device-ops/diagnostics/runs/:id/ws',
    {
      websocket: true,
      schema: { tags, params: idParamSchema, querystring: emptyQuery },
      onRequest: async (request) => {
        if (!sameOrigin(request)) throw forbidden();
      },
      // The access checks run before the upgrade: a refused socket gets the HTTP answer (401/403/404).
      preHandler: async (request) => {
        runs.set(request, await ops.followable(requireAuth(request), (request.params as { id: number }).id));
      },
      onResponse: async (request) => {
        if (request.headers.upgrade) request.raw.socket.destroy();
      },
    },
    (socket, request) => {
      const row = runs.get(request);
      if (!row) {
        socket.close(4003, 'not allowed');
        return;
      }
      let open = true;
      const stop = ops.follow(row, (message) => {
        if (!open) return;
        socket.send(JSON.stringify(message));
        if (message.type === 'end') socket.close(1000, 'done');
      });
      socket.on('message', () => undefined);
      socket.on('close', () => {
        open = false;
        stop();
      });
    },
  );
}
