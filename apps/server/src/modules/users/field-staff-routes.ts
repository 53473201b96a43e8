import {
  fieldStaffAreasSchema,
  fieldStaffCreateSchema,
  fieldStaffInputSchema,
  fieldStaffListQuerySchema,
  fieldStaffListSchema,
  fieldStaffParamSchema,
  fieldStaffPersonQuerySchema,
  fieldStaffRoleQuerySchema,
  fieldStaffSchema,
  fieldStaffTicketsQuerySchema,
  fieldStaffTicketsSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { FieldStaffService } from './field-staff-service.ts';

/** /iotapp/field-staff/: the field executives, store managers and infra admins directories (`role` picks one). */
export function fieldStaffRoutes(app: FastifyInstance, opts: { staff: FieldStaffService; originOf(request: FastifyRequest): string }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { staff } = opts;
  const tags = ['field-staff'];
  r.get(
    '/iotapp/field-staff/',
    { schema: { tags, querystring: fieldStaffListQuerySchema, response: { 200: fieldStaffListSchema } } },
    async (request) => staff.list(requireAuth(request), request.query),
  );
  r.get(
    '/iotapp/field-staff/areas/',
    { schema: { tags, querystring: fieldStaffRoleQuerySchema, response: { 200: fieldStaffAreasSchema } } },
    async (request) => staff.areas(requireAuth(request), request.query.role),
  );
  r.post(
    '/iotapp/field-staff/',
    { preHandler: permissionGuard('add_user'), schema: { tags, body: fieldStaffCreateSchema, response: { 201: fieldStaffSchema } } },
    async (request, reply) =>
      reply.status(201).send(await staff.create(request, requireAuth(request), request.body, opts.originOf(request))),
  );
  r.get(
    '/iotapp/field-staff/:id/',
    { schema: { tags, params: fieldStaffParamSchema, querystring: fieldStaffPersonQuerySchema, response: { 200: fieldStaffSchema } } },
    async (request) => staff.get(requireAuth(request), request.query.role, request.params.id),
  );
  r.put(
    '/iotapp/field-staff/:id/',
    {
      preHandler: permissionGuard('change_user'),
      schema: {
        tags,
        params: fieldStaffParamSchema,
        querystring: fieldStaffPersonQuerySchema,
        body: fieldStaffInputSchema,
        response: { 200: fieldStaffSchema },
      },
    },
    async (request) => staff.update(request, requireAuth(request), request.query.role, request.params.id, request.body),
  );
  r.delete(
    '/iotapp/field-staff/:id/',
    {
      preHandler: permissionGuard('delete_user'),
      schema: { tags, params: fieldStaffParamSchema, querystring: fieldStaffPersonQuerySchema, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await staff.remove(request, requireAuth(request), request.query.role, request.params.id);
      return reply.status(204).send(null);
    },
  );
  r.get(
    '/iotapp/field-staff/:id/tickets/',
    {
      schema: {
        tags,
        params: fieldStaffParamSchema,
        querystring: fieldStaffTicketsQuerySchema,
        response: { 200: fieldStaffTicketsSchema },
      },
    },
    async (request) => staff.tickets(requireAuth(request), request.query.role, request.params.id, request.query),
  );
}
