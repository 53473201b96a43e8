import {
  alarmListQuerySchema,
  alarmRuleInputSchema,
  alarmRuleSchema,
  alarmSchema,
  alarmTicketSchema,
  idParamSchema,
  listOf,
  MANAGE_ALARM_RULES,
  okSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessGuard, requireAuth } from '../../platform/auth/context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { AlarmService } from './service.ts';

/** Tenant-wide alarm rules are configured by administrators or holders of manage_alarm_rules. */
const ruleEditors = accessGuard(async (request: FastifyRequest) => {
  const auth = requireAuth(request);
  const admin = auth.roles.some((r) => r === 'sysadmin' || r === 'customeradmin' || r === 'localadmin');
  if (!admin && !auth.permissions.has(MANAGE_ALARM_RULES.codename)) throw forbidden();
});

export function alarmRoutes(app: FastifyInstance, opts: { alarms: AlarmService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { alarms } = opts;
  const tags = ['alarms'];
  r.get('/api/alarms/', { schema: { tags, querystring: alarmListQuerySchema, response: { 200: listOf(alarmSchema) } } }, async (request) =>
    alarms.listAlarms(requireAuth(request), request.query),
  );
  r.post(
    '/api/alarms/:id/ticket/',
    { schema: { tags, params: idParamSchema, response: { 200: alarmTicketSchema, 201: alarmTicketSchema } } },
    async (request, reply) => {
      const ticket = await alarms.raiseTicket(requireAuth(request), request.params.id);
      return reply.status(ticket.reused ? 200 : 201).send(ticket);
    },
  );
  r.get('/api/alarms/rules/', { schema: { tags, response: { 200: z.object({ contents: z.array(alarmRuleSchema) }) } } }, async (request) =>
    alarms.listRules(requireAuth(request)),
  );
  r.post(
    '/api/alarms/rules/',
    { preHandler: ruleEditors, schema: { tags, body: alarmRuleInputSchema, response: { 201: alarmRuleSchema } } },
    async (request, reply) => reply.status(201).send(await alarms.createRule(requireAuth(request), request.body)),
  );
  r.put(
    '/api/alarms/rules/:id/',
    { preHandler: ruleEditors, schema: { tags, params: idParamSchema, body: alarmRuleInputSchema, response: { 200: alarmRuleSchema } } },
    async (request) => alarms.updateRule(requireAuth(request), request.params.id, request.body),
  );
  r.delete(
    '/api/alarms/rules/:id/',
    { preHandler: ruleEditors, schema: { tags, params: idParamSchema, response: { 200: okSchema } } },
    async (request) => alarms.deleteRule(requireAuth(request), request.params.id),
  );
}
