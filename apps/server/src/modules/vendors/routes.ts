import {
  idParamSchema,
  ticketListSchema,
  vendorInputSchema,
  vendorListQuerySchema,
  vendorListSchema,
  vendorSchema,
  vendorTicketsQuerySchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { VendorService } from './service.ts';

/** SPEC 2.2 /vendors: the vendors directory under /iotapp/vendors/. */
export function vendorRoutes(app: FastifyInstance, vendors: VendorService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['vendors'];

  r.get(
    '/iotapp/vendors/',
    { schema: { tags, querystring: vendorListQuerySchema, response: { 200: vendorListSchema } } },
    async (request) => vendors.list(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/vendors/',
    { preHandler: permissionGuard('add_vendor'), schema: { tags, body: vendorInputSchema, response: { 201: vendorSchema } } },
    async (request, reply) => reply.status(201).send(await vendors.create(requireAuth(request), request.body, originOf(request))),
  );
  r.get('/iotapp/vendors/:id/', { schema: { tags, params: idParamSchema, response: { 200: vendorSchema } } }, async (request) =>
    vendors.get(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/vendors/:id/',
    {
      preHandler: permissionGuard('change_vendor'),
      schema: { tags, params: idParamSchema, body: vendorInputSchema, response: { 200: vendorSchema } },
    },
    async (request) => vendors.update(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete('/iotapp/vendors/:id/', { schema: { tags, params: idParamSchema, response: { 204: z.null() } } }, async (request, reply) => {
    await vendors.remove(requireAuth(request), request.params.id, originOf(request));
    return reply.status(204).send(null);
  });
  r.get(
    '/iotapp/vendors/:id/tickets/',
    { schema: { tags, params: idParamSchema, querystring: vendorTicketsQuerySchema, response: { 200: ticketListSchema } } },
    async (request) => vendors.tickets(requireAuth(request), request.params.id, request.query),
  );
}
