import {
  attributeRequestSchema,
  attributeResponseSchema,
  attributeUpdatesQuerySchema,
  idParamSchema,
  sharedAttributeListSchema,
  sharedAttributesDeleteQuerySchema,
  sharedAttributesInputSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { Ingest, TelemetryPort } from '../telemetry/index.ts';
import type { AttributeService } from './attributes.ts';
import type { ClientRpc } from './client-rpc.ts';

const tokenParams = z.object({ token: z.string().min(1).max(128) });
const anyJson = z.object({}).passthrough();
const unknownToken = { detail: 'Unknown or revoked device token.', code: 'invalid_token' };

/**
 * ThingsBoard's HTTP device API beyond telemetry: read attributes, long-poll shared attribute updates, and
 * device-side RPC. The token in the path is the credential (no tenant host, session or CSRF token).
 */
export function deviceApiHttpRoutes(app: FastifyInstance, opts: { ingest: Ingest; attributes: AttributeService; clientRpc: ClientRpc }) {
  const { ingest, attributes, clientRpc } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: { tenantless: true, public: true, csrf: false } };
  const tags = ['device-api'];

  r.get(
    '/api/v1/:token/attributes',
    {
      config,
      schema: { tags, params: tokenParams, querystring: attributeRequestSchema, response: { 200: attributeResponseSchema, 401: anyJson } },
    },
    async (request, reply) => {
      const device = await ingest.deviceForToken(request.params.token);
      if (!device) return reply.status(401).send(unknownToken);
      return attributes.request(device, request.query);
    },
  );
  r.get(
    '/api/v1/:token/attributes/updates',
    {
      config,
      schema: {
        tags,
        params: tokenParams,
        querystring: attributeUpdatesQuerySchema,
        response: { 200: anyJson, 401: anyJson, 408: anyJson },
      },
    },
    async (request, reply) => {
      const device = await ingest.deviceForToken(request.params.token);
      if (!device) return reply.status(401).send(unknownToken);
      const controller = new AbortController();
      request.raw.on('close', () => {
        if (!reply.sent) controller.abort();
      });
      const update = await attributes.nextUpdate(device.id, request.query.timeout, controller.signal);
      if (!update) return reply.status(408).send({});
      return reply.status(200).send(update);
    },
  );
  r.post(
    '/api/v1/:token/rpc',
    { config, schema: { tags, params: tokenParams, body: z.unknown(), response: { 200: anyJson, 401: anyJson } } },
    async (request, reply) => {
      const device = await ingest.deviceForToken(request.params.token);
      if (!device) return reply.status(401).send(unknownToken);
      return clientRpc(device, request.body);
    },
  );
}

/** Users read and edit a device's shared attributes (the device sees every change). */
export function sharedAttributeRoutes(
  app: FastifyInstance,
  opts: { attributes: AttributeService; visibleDevice: TelemetryPort['visibleDevice'] },
) {
  const { attributes, visibleDevice } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['device-api'];
  const url = '/api/device-api/devices/:id/shared-attributes/';
  const writers = [permissionGuard('view_device'), permissionGuard('change_device')];

  r.get(
    url,
    { preHandler: permissionGuard('view_device'), schema: { tags, params: idParamSchema, response: { 200: sharedAttributeListSchema } } },
    async (request) => attributes.list(requireAuth(request), request.params.id),
  );
  r.put(
    url,
    {
      preHandler: writers,
      schema: { tags, params: idParamSchema, body: sharedAttributesInputSchema, response: { 200: sharedAttributeListSchema } },
    },
    async (request) => attributes.set(requireAuth(request), request.params.id, request.body),
  );
  r.delete(
    url,
    {
      // the device is checked before the query is validated: another tenant's device is a 404, whatever the query
      preValidation: async (request) => {
        const id = idParamSchema.safeParse(request.params);
        if (id.success) await visibleDevice(requireAuth(request), id.data.id);
      },
      preHandler: writers,
      schema: { tags, params: idParamSchema, querystring: sharedAttributesDeleteQuerySchema, response: { 200: sharedAttributeListSchema } },
    },
    async (request) => attributes.remove(requireAuth(request), request.params.id, request.query.keys),
  );
}
