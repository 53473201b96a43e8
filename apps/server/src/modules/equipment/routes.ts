import {
  equipmentHistorySchema,
  equipmentInputSchema,
  equipmentListQuerySchema,
  equipmentListSchema,
  equipmentOverviewSchema,
  equipmentSchema,
  idParamSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { EquipmentService } from './service.ts';

/** /asset-management and /equipments: the equipment at sites and its maintenance history. */
export function equipmentRoutes(app: FastifyInstance, opts: { equipment: EquipmentService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { equipment } = opts;
  const tags = ['equipment'];

  r.get(
    '/api/equipment/',
    { schema: { tags, querystring: equipmentListQuerySchema, response: { 200: equipmentListSchema } } },
    async (request) => equipment.list(requireAuth(request), request.query),
  );
  r.get('/api/equipment/overview/', { schema: { tags, response: { 200: equipmentOverviewSchema } } }, async (request) =>
    equipment.overview(requireAuth(request)),
  );
  r.post(
    '/api/equipment/',
    { preHandler: permissionGuard('add_equipment'), schema: { tags, body: equipmentInputSchema, response: { 201: equipmentSchema } } },
    async (request, reply) => reply.status(201).send(await equipment.create(requireAuth(request), request.body, originOf(request))),
  );
  r.get('/api/equipment/:id/', { schema: { tags, params: idParamSchema, response: { 200: equipmentSchema } } }, async (request) =>
    equipment.get(requireAuth(request), request.params.id),
  );
  r.put(
    '/api/equipment/:id/',
    {
      preHandler: permissionGuard('change_equipment'),
      schema: { tags, params: idParamSchema, body: equipmentInputSchema, response: { 200: equipmentSchema } },
    },
    async (request) => equipment.update(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/api/equipment/:id/',
    { preHandler: permissionGuard('delete_equipment'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await equipment.remove(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
  r.get(
    '/api/equipment/:id/history/',
    { schema: { tags, params: idParamSchema, response: { 200: equipmentHistorySchema } } },
    async (request) => equipment.history(requireAuth(request), request.params.id),
  );
}
