import {
  idParamSchema,
  prActionResultSchema,
  prActionSchema,
  prFromLowStockSchema,
  prInputSchema,
  prListSchema,
  prQuerySchema,
  purchaseRequestDetailSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { PurchaseRequestService } from './service.ts';

const tags = ['purchase-requests'];

/** /pr-report's working screens: the list, the form, one request and its actions. */
export function purchaseRequestRoutes(app: FastifyInstance, deps: { requests: PurchaseRequestService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { requests } = deps;

  r.get('/iotapp/purchase-requests/', { schema: { tags, querystring: prQuerySchema, response: { 200: prListSchema } } }, async (request) =>
    requests.list(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/purchase-requests/',
    {
      preHandler: permissionGuard('add_purchaserequest'),
      schema: { tags, body: prInputSchema, response: { 201: purchaseRequestDetailSchema } },
    },
    async (request, reply) => reply.status(201).send(await requests.create(requireAuth(request), request.body, originOf(request))),
  );
  r.post(
    '/iotapp/purchase-requests/from-low-stock/',
    {
      preHandler: permissionGuard('add_purchaserequest'),
      schema: { tags, body: prFromLowStockSchema, response: { 201: purchaseRequestDetailSchema } },
    },
    async (request, reply) => reply.status(201).send(await requests.fromLowStock(requireAuth(request), request.body, originOf(request))),
  );
  r.get(
    '/iotapp/purchase-requests/:id/',
    { schema: { tags, params: idParamSchema, response: { 200: purchaseRequestDetailSchema } } },
    async (request) => requests.get(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/purchase-requests/:id/',
    {
      preHandler: permissionGuard('change_purchaserequest'),
      schema: { tags, params: idParamSchema, body: prInputSchema, response: { 200: purchaseRequestDetailSchema } },
    },
    async (request) => requests.update(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.post(
    '/iotapp/purchase-requests/:id/actions/',
    {
      preHandler: permissionGuard('view_purchaserequest'),
      schema: { tags, params: idParamSchema, body: prActionSchema, response: { 200: prActionResultSchema } },
    },
    async (request) => requests.act(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
}
