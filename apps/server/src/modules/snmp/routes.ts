import {
  idParamSchema,
  trapDestinationInputSchema,
  trapDestinationListSchema,
  trapDestinationSchema,
  trapFilterInputSchema,
  trapFilterListSchema,
  trapFilterSchema,
  trapListQuerySchema,
  trapMappingInputSchema,
  trapMappingListSchema,
  trapMappingSchema,
  trapReceivingInputSchema,
  trapReceivingSchema,
  trapStatsSchema,
  unmatchedTrapListSchema,
  unmatchedTrapQuerySchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { SnmpService } from './service.ts';

/** /trapforward/destinations and /trapforward/filters, the OID → alarm mappings and the unmatched traps. */
export function snmpRoutes(app: FastifyInstance, opts: { snmp: SnmpService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { snmp } = opts;
  const tags = ['snmp'];
  const base = '/api/trapforward';

  r.get(
    `${base}/destinations/`,
    { schema: { tags, querystring: trapListQuerySchema, response: { 200: trapDestinationListSchema } } },
    async (request) => snmp.listDestinations(requireAuth(request), request.query),
  );
  r.post(
    `${base}/destinations/`,
    {
      preHandler: permissionGuard('add_trap_destination'),
      schema: { tags, body: trapDestinationInputSchema, response: { 201: trapDestinationSchema } },
    },
    async (request, reply) => reply.status(201).send(await snmp.createDestination(requireAuth(request), request.body)),
  );
  r.get(
    `${base}/destinations/:id/`,
    { schema: { tags, params: idParamSchema, response: { 200: trapDestinationSchema } } },
    async (request) => snmp.getDestination(requireAuth(request), request.params.id),
  );
  r.put(
    `${base}/destinations/:id/`,
    {
      preHandler: permissionGuard('change_trap_destination'),
      schema: { tags, params: idParamSchema, body: trapDestinationInputSchema, response: { 200: trapDestinationSchema } },
    },
    async (request) => snmp.updateDestination(requireAuth(request), request.params.id, request.body),
  );
  r.delete(
    `${base}/destinations/:id/`,
    { preHandler: permissionGuard('delete_trap_destination'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await snmp.deleteDestination(requireAuth(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    `${base}/filters/`,
    { schema: { tags, querystring: trapListQuerySchema, response: { 200: trapFilterListSchema } } },
    async (request) => snmp.listFilters(requireAuth(request), request.query),
  );
  r.post(
    `${base}/filters/`,
    { preHandler: permissionGuard('add_trap_filter'), schema: { tags, body: trapFilterInputSchema, response: { 201: trapFilterSchema } } },
    async (request, reply) => reply.status(201).send(await snmp.createFilter(requireAuth(request), request.body)),
  );
  r.get(`${base}/filters/:id/`, { schema: { tags, params: idParamSchema, response: { 200: trapFilterSchema } } }, async (request) =>
    snmp.getFilter(requireAuth(request), request.params.id),
  );
  r.put(
    `${base}/filters/:id/`,
    {
      preHandler: permissionGuard('change_trap_filter'),
      schema: { tags, params: idParamSchema, body: trapFilterInputSchema, response: { 200: trapFilterSchema } },
    },
    async (request) => snmp.updateFilter(requireAuth(request), request.params.id, request.body),
  );
  r.delete(
    `${base}/filters/:id/`,
    { preHandler: permissionGuard('delete_trap_filter'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await snmp.deleteFilter(requireAuth(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(`${base}/mappings/`, { schema: { tags, response: { 200: trapMappingListSchema } } }, async (request) =>
    snmp.listMappings(requireAuth(request)),
  );
  r.post(
    `${base}/mappings/`,
    {
      preHandler: permissionGuard('add_trap_filter'),
      schema: { tags, body: trapMappingInputSchema, response: { 201: trapMappingSchema } },
    },
    async (request, reply) => reply.status(201).send(await snmp.createMapping(requireAuth(request), request.body)),
  );
  r.put(
    `${base}/mappings/:id/`,
    {
      preHandler: permissionGuard('change_trap_filter'),
      schema: { tags, params: idParamSchema, body: trapMappingInputSchema, response: { 200: trapMappingSchema } },
    },
    async (request) => snmp.updateMapping(requireAuth(request), request.params.id, request.body),
  );
  r.delete(
    `${base}/mappings/:id/`,
    { preHandler: permissionGuard('delete_trap_filter'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await snmp.deleteMapping(requireAuth(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    `${base}/unmatched/`,
    { schema: { tags, querystring: unmatchedTrapQuerySchema, response: { 200: unmatchedTrapListSchema } } },
    async (request) => snmp.listUnmatched(requireAuth(request), request.query),
  );
  r.get(`${base}/receiving/`, { schema: { tags, response: { 200: trapReceivingSchema } } }, async (request) =>
    snmp.getReceiving(requireAuth(request)),
  );
  r.put(
    `${base}/receiving/`,
    {
      preHandler: permissionGuard('change_trap_filter'),
      schema: { tags, body: trapReceivingInputSchema, response: { 200: trapReceivingSchema } },
    },
    async (request) => snmp.saveReceiving(requireAuth(request), request.body, originOf(request)),
  );
  r.post(
    `${base}/receiving/community/`,
    { preHandler: permissionGuard('change_trap_filter'), schema: { tags, response: { 200: trapReceivingSchema } } },
    async (request) => snmp.renewCommunity(requireAuth(request), originOf(request)),
  );
  r.get(`${base}/stats/`, { schema: { tags, response: { 200: trapStatsSchema } } }, async (request) => snmp.stats(requireAuth(request)));
}
