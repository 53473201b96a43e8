import {
  chartQuerySchema,
  chartResponseSchema,
  deviceConnectionSchema,
  deviceRateLimitsSchema,
  deviceRateLimitsUpdateSchema,
  idParamSchema,
  ingestStatsSchema,
  latestBatchQuerySchema,
  latestBatchResponseSchema,
  latestResponseSchema,
  TELEMETRY_LIMITS,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, roleGuard } from '../../platform/auth/context.ts';
import { DEVICE_PAYLOAD_SCHEMA } from '../../platform/openapi.ts';
import type { Ingest } from './ingest.ts';
import type { TelemetryService } from './service.ts';

const tokenParams = z.object({ token: z.string().min(1).max(128) });

/** A device over its (or its tenant's) rate limits, answered as ThingsBoard does. */
export const rateLimited = (reply: FastifyReply) =>
  reply
    .status(429)
    .header('Retry-After', '1')
    .send({ detail: 'Too many messages from this device or its tenant; slow down.', code: 'rate_limited' });
const deviceReply = z.object({}).passthrough();

/**
 * The HTTP device API (ThingsBoard's `POST /api/v1/{token}/telemetry` and `/attributes`): the token in the path is
 * the credential, so these routes need no tenant host, session or CSRF token. The body is read raw so that
 * malformed and oversize input is refused and counted by the same parser as MQTT.
 */
export function deviceApiRoutes(app: FastifyInstance, opts: { ingest: Ingest }) {
  const { ingest } = opts;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: TELEMETRY_LIMITS.maxPayloadBytes * 4 }, (_req, body, done) =>
      done(null, body),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const access = { tenantless: true, public: true, csrf: false };
    const handler =
      (kind: 'telemetry' | 'attributes') => async (request: { params: { token: string }; body: unknown }, reply: FastifyReply) => {
        const device = await ingest.deviceForToken(request.params.token);
        if (!device) {
          ingest.refuse('unknown_token', 'unknown or revoked token');
          return reply.status(401).send({ detail: 'Unknown or revoked device token.', code: 'invalid_token' });
        }
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!ingest.admit(device, body.length, 'http')) return rateLimited(reply);
        const result = await ingest.submit(device, kind, body, false);
        if (!result.ok) {
          if (result.reason === 'overloaded') {
            return reply.status(503).header('Retry-After', '1').send({ detail: 'Ingest is busy, retry shortly.', code: 'overloaded' });
          }
          const status = result.reason === 'too_large' ? 413 : 400;
          return reply.status(status).send({ detail: result.message, code: result.reason });
        }
        await result.stored;
        return reply.status(200).send({});
      };
    r.post(
      '/api/v1/:token/telemetry',
      {
        config: { access, openapiBody: DEVICE_PAYLOAD_SCHEMA },
        schema: {
          tags: ['device-api'],
          summary: 'Post device telemetry (the token in the path is the credential)',
          params: tokenParams,
          response: { 200: deviceReply },
        },
      },
      handler('telemetry'),
    );
    r.post(
      '/api/v1/:token/attributes',
      {
        config: { access, openapiBody: DEVICE_PAYLOAD_SCHEMA },
        schema: {
          tags: ['device-api'],
          summary: 'Post device attributes (the token in the path is the credential)',
          params: tokenParams,
          response: { 200: deviceReply },
        },
      },
      handler('attributes'),
    );
  });
}

export function telemetryRoutes(app: FastifyInstance, opts: { service: TelemetryService; ingest: Ingest; mqttClients: () => number }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;
  const tags = ['telemetry'];

  r.get(
    '/api/telemetry/devices/:id/latest/',
    { schema: { tags, params: idParamSchema, response: { 200: latestResponseSchema } } },
    async (request) => service.latest(requireAuth(request), request.params.id),
  );
  r.get(
    '/api/telemetry/devices/:id/chart/',
    {
      // the device is checked before the query is validated: another tenant's device is a 404, whatever the query
      preValidation: async (request) => {
        const id = idParamSchema.safeParse(request.params);
        if (id.success) await service.visibleDevice(requireAuth(request), id.data.id);
      },
      schema: { tags, params: idParamSchema, querystring: chartQuerySchema, response: { 200: chartResponseSchema } },
    },
    async (request) => service.chart(requireAuth(request), request.params.id, request.query),
  );
  r.get(
    '/api/telemetry/devices/:id/connection/',
    { schema: { tags, params: idParamSchema, response: { 200: deviceConnectionSchema } } },
    async (request) => service.connection(requireAuth(request), request.params.id, { protocol: request.protocol, host: request.host }),
  );
  r.get(
    '/api/telemetry/latest/',
    { schema: { tags, querystring: latestBatchQuerySchema, response: { 200: latestBatchResponseSchema } } },
    async (request) => service.latestOf(requireAuth(request), request.query.ids, request.query.keys),
  );
  r.get(
    '/api/telemetry/rate-limits/',
    { preHandler: roleGuard('sysadmin', 'customeradmin'), schema: { tags, response: { 200: deviceRateLimitsSchema } } },
    async (request) => service.rateLimits(requireAuth(request).tenantId),
  );
  r.put(
    '/api/telemetry/rate-limits/',
    {
      preHandler: roleGuard('sysadmin'),
      schema: { tags, body: deviceRateLimitsUpdateSchema, response: { 200: deviceRateLimitsSchema } },
    },
    async (request) => service.setRateLimits(requireAuth(request).tenantId, request.body),
  );
  r.get(
    '/api/telemetry/ingest-stats/',
    { preHandler: roleGuard('sysadmin'), schema: { tags, response: { 200: ingestStatsSchema } } },
    async () => ({ ...opts.ingest.stats(), mqttClients: opts.mqttClients() }),
  );
}
