import {
  bulkCommandListSchema,
  bulkCommandRequestSchema,
  bulkCommandStatusSchema,
  bulkListQuerySchema,
  bulkStatusQuerySchema,
  COMMAND_LIMITS,
  COMMAND_PERMISSION,
  commandListQuerySchema,
  commandListSchema,
  commandRequestSchema,
  commandSchema,
  devicePollQuerySchema,
  deviceRpcRequestSchema,
  idParamSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import { viewerOf } from '../sites/scope.ts';
import { type Ingest, rateLimited } from '../telemetry/index.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { CommandService } from './service.ts';

const tags = ['commands'];

/** The user-facing API: send (send_command), read (view_device), always within the caller's tenant and sites. */
export function commandRoutes(app: FastifyInstance, opts: { service: CommandService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;
  const viewer = (request: FastifyRequest) => viewerOf(requireAuth(request));
  const sender = [permissionGuard('view_device'), permissionGuard(COMMAND_PERMISSION)];

  r.get(
    '/api/commands/',
    {
      preHandler: permissionGuard('view_device'),
      schema: { tags, querystring: commandListQuerySchema, response: { 200: commandListSchema } },
    },
    async (request) => service.list(viewer(request), request.query),
  );
  r.post(
    '/api/commands/',
    { preHandler: sender, schema: { tags, body: commandRequestSchema, response: { 201: commandSchema } } },
    async (request, reply) => reply.status(201).send(await service.send(viewer(request), originOf(request), request.body)),
  );
  r.get(
    '/api/commands/bulk/',
    { preHandler: sender, schema: { tags, querystring: bulkListQuerySchema, response: { 200: bulkCommandListSchema } } },
    async (request) => service.bulks(viewer(request), request.query.page, request.query.limit),
  );
  r.post(
    '/api/commands/bulk/',
    { preHandler: sender, schema: { tags, body: bulkCommandRequestSchema, response: { 201: bulkCommandStatusSchema } } },
    async (request, reply) => reply.status(201).send(await service.sendBulk(viewer(request), originOf(request), request.body)),
  );
  r.get(
    '/api/commands/bulk/:id/',
    {
      preHandler: sender,
      schema: { tags, params: idParamSchema, querystring: bulkStatusQuerySchema, response: { 200: bulkCommandStatusSchema } },
    },
    async (request) => service.bulk(viewer(request), request.params.id, request.query),
  );
  r.get(
    '/api/commands/:id/',
    { preHandler: permissionGuard('view_device'), schema: { tags, params: idParamSchema, response: { 200: commandSchema } } },
    async (request) => service.one(viewer(request), request.params.id),
  );
}

const tokenParams = z.object({ token: z.string().min(1).max(128) });
const replyParams = tokenParams.extend({ requestId: z.string().min(1).max(12) });

/**
 * The HTTP device side (ThingsBoard's `GET /api/v1/{token}/rpc?timeout=` long poll and `POST /api/v1/{token}/rpc/{id}`
 * reply): the token in the path is the credential, as for telemetry. A poll answers one command, or 408 when none
 * came in time; the next poll acknowledges what the previous one took.
 */
export function deviceRpcRoutes(app: FastifyInstance, opts: { ingest: Ingest; dispatcher: Dispatcher }) {
  const { ingest, dispatcher } = opts;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: COMMAND_LIMITS.responseBytes * 2 }, (_req, body, done) =>
      done(null, body),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const access = { tenantless: true, public: true, csrf: false };
    const unknownToken = { detail: 'Unknown or revoked device token.', code: 'invalid_token' };
    r.get(
      '/api/v1/:token/rpc',
      {
        config: { access },
        schema: {
          tags: ['device-api'],
          params: tokenParams,
          querystring: devicePollQuerySchema,
          response: { 200: deviceRpcRequestSchema, 401: z.object({}).passthrough(), 408: z.object({}).passthrough() },
        },
      },
      async (request, reply) => {
        const device = await ingest.deviceForToken(request.params.token);
        if (!device) return reply.status(401).send(unknownToken);
        const controller = new AbortController();
        request.raw.on('close', () => {
          if (!reply.sent) controller.abort();
        });
        const command = await dispatcher.poll(device, request.query.timeout, controller.signal);
        if (!command) return reply.status(408).send({});
        return reply.status(200).send({ id: command.id, method: command.method, params: command.params ?? {} });
      },
    );
    r.post(
      '/api/v1/:token/rpc/:requestId',
      {
        config: { access },
        schema: {
          tags: ['device-api'],
          params: replyParams,
          response: { 200: z.object({}).passthrough(), 401: z.object({}).passthrough(), 503: z.object({}).passthrough() },
        },
      },
      async (request, reply) => {
        const device = await ingest.deviceForToken(request.params.token);
        if (!device) return reply.status(401).send(unknownToken);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!ingest.admit(device, body.length, 'http')) return rateLimited(reply);
        try {
          await dispatcher.repliedOverHttp(device, request.params.requestId, body);
        } catch {
          return reply
            .status(503)
            .header('Retry-After', '1')
            .send({ detail: 'The reply could not be recorded, send it again.', code: 'unavailable' });
        }
        return reply.status(200).send({});
      },
    );
  });
}
