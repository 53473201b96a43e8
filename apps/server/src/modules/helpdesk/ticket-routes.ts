import multipart from '@fastify/multipart';
import {
  attachmentParamSchema,
  bulkAssignResultSchema,
  bulkAssignSchema,
  commentCreateSchema,
  commentListSchema,
  commentSchema,
  HELPDESK_MESSAGES,
  historyListSchema,
  historyQuerySchema,
  priorityListSchema,
  ratingResultSchema,
  ratingSchema,
  statusListSchema,
  statusQuerySchema,
  TICKET_LIMITS,
  TICKET_TYPES,
  ticketCreateSchema,
  ticketDaysQuerySchema,
  ticketDaysSchema,
  ticketFilterSchema,
  ticketIdParamSchema,
  ticketListQuerySchema,
  ticketListSchema,
  ticketSchema,
  ticketStatsSchema,
  ticketUpdateSchema,
  watcherAddSchema,
  watcherParamSchema,
  workOrderCreateSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { originOf } from '../../platform/audit.ts';
import { accessGuard, objectGuard, requireAuth } from '../../platform/auth/context.ts';
import { forbidden } from '../../platform/errors.ts';
import { readFiles } from '../../platform/uploads.ts';
import { canChange, canEdit, canRaise } from './access.ts';
import type { ActivityService } from './activity-service.ts';
import type { AdminService } from './admin-service.ts';
import type { TicketService } from './ticket-service.ts';

const tags = ['helpdesk'];

export async function ticketRoutes(app: FastifyInstance, deps: { tickets: TicketService; activity: ActivityService; admin: AdminService }) {
  await app.register(multipart, { limits: { fileSize: TICKET_LIMITS.attachmentBytes, files: 10, fields: 10, parts: 20 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { tickets, activity, admin } = deps;
  const changers = accessGuard(async (request) => {
    if (!canChange(requireAuth(request))) throw forbidden();
  });
  // which kind a ticket is may come from the body: one who may raise no kind at all is refused before it is read
  const raisers = accessGuard(async (request) => {
    const auth = requireAuth(request);
    if (!TICKET_TYPES.some((type) => canRaise(auth, type))) throw forbidden();
  });
  const workOrderRaisers = accessGuard(async (request) => {
    if (!canRaise(requireAuth(request), 'WORKORDERTICKET')) throw forbidden();
  });
  const visible = objectGuard(ticketIdParamSchema, (_request, { id }, auth) => tickets.visibleTicket(auth, id));
  const editable = objectGuard(ticketIdParamSchema, async (_request, { id }, auth) => {
    if (!canEdit(auth, await tickets.visibleTicket(auth, id))) throw forbidden();
  });
  const rateable = objectGuard(ticketIdParamSchema, (_request, { id }, auth) => activity.mayRate(auth, id));

  r.get('/helpdesk/status/', { schema: { tags, querystring: statusQuerySchema, response: { 200: statusListSchema } } }, async (request) =>
    admin.statuses(request.query.page, request.query.limit),
  );
  r.get('/helpdesk/priority/', { schema: { tags, response: { 200: priorityListSchema } } }, async (request) =>
    admin.priorities(requireAuth(request).tenantId),
  );

  r.get(
    '/helpdesk/tickets/',
    { schema: { tags, querystring: ticketListQuerySchema, response: { 200: ticketListSchema } } },
    async (request) => tickets.list(requireAuth(request), request.query),
  );
  r.get(
    '/helpdesk/tickets/stats/',
    { schema: { tags, querystring: ticketFilterSchema, response: { 200: ticketStatsSchema } } },
    async (request) => tickets.stats(requireAuth(request), request.query),
  );
  r.get(
    '/helpdesk/tickets/days/',
    { schema: { tags, querystring: ticketDaysQuerySchema, response: { 200: ticketDaysSchema } } },
    async (request) => tickets.days(requireAuth(request), request.query),
  );
  r.post(
    '/helpdesk/tickets/',
    { preHandler: raisers, schema: { tags, body: ticketCreateSchema, response: { 201: ticketSchema } } },
    async (request, reply) => reply.status(201).send(await tickets.raise(requireAuth(request), request.body, originOf(request))),
  );
  r.post(
    '/helpdesk/tickets/assign/',
    { preHandler: changers, schema: { tags, body: bulkAssignSchema, response: { 200: bulkAssignResultSchema } } },
    async (request) => activity.bulkAssign(requireAuth(request), request.body, originOf(request)),
  );
  r.get('/helpdesk/tickets/:id/', { schema: { tags, params: ticketIdParamSchema, response: { 200: ticketSchema } } }, async (request) =>
    tickets.get(requireAuth(request), request.params.id),
  );
  r.put(
    '/helpdesk/tickets/:id/',
    { preHandler: editable, schema: { tags, params: ticketIdParamSchema, body: ticketUpdateSchema, response: { 200: ticketSchema } } },
    async (request) => (await tickets.update(requireAuth(request), request.params.id, request.body, originOf(request))).ticket,
  );

  r.get(
    '/helpdesk/tickets/:id/history/',
    { schema: { tags, params: ticketIdParamSchema, querystring: historyQuerySchema, response: { 200: historyListSchema } } },
    async (request) => activity.history(requireAuth(request), request.params.id, request.query),
  );
  r.get(
    '/helpdesk/tickets/:id/comments/',
    { schema: { tags, params: ticketIdParamSchema, querystring: historyQuerySchema, response: { 200: commentListSchema } } },
    async (request) => activity.comments(requireAuth(request), request.params.id, request.query),
  );
  r.post(
    '/helpdesk/tickets/:id/comments/',
    { preHandler: visible, schema: { tags, params: ticketIdParamSchema, body: commentCreateSchema, response: { 201: commentSchema } } },
    async (request, reply) =>
      reply.status(201).send(await activity.addComment(requireAuth(request), request.params.id, request.body.text, request.actionTime)),
  );

  r.post(
    '/helpdesk/tickets/:id/watchers/',
    { preHandler: visible, schema: { tags, params: ticketIdParamSchema, body: watcherAddSchema, response: { 200: ticketSchema } } },
    async (request) => activity.watch(requireAuth(request), request.params.id, request.body.userId),
  );
  r.delete(
    '/helpdesk/tickets/:id/watchers/:userId/',
    { schema: { tags, params: watcherParamSchema, response: { 200: ticketSchema } } },
    async (request) => activity.unwatch(requireAuth(request), request.params.id, request.params.userId),
  );
  r.post(
    '/helpdesk/tickets/:id/rating/',
    { preHandler: rateable, schema: { tags, params: ticketIdParamSchema, body: ratingSchema, response: { 200: ratingResultSchema } } },
    async (request) => activity.rate(requireAuth(request), request.params.id, request.body),
  );
  r.post(
    '/helpdesk/tickets/:id/work-order/',
    {
      preHandler: [workOrderRaisers, visible],
      schema: { tags, params: ticketIdParamSchema, body: workOrderCreateSchema, response: { 201: ticketSchema } },
    },
    async (request, reply) => reply.status(201).send(await activity.raiseWorkOrder(requireAuth(request), request.params.id, request.body)),
  );

  r.post(
    '/helpdesk/tickets/:id/attachments/',
    { schema: { tags, params: ticketIdParamSchema, consumes: ['multipart/form-data'], response: { 201: ticketSchema } } },
    async (request, reply) => {
      const actor = requireAuth(request);
      await tickets.visibleTicket(actor, request.params.id);
      const files = await readFiles(request, TICKET_LIMITS.attachmentBytes, 10, HELPDESK_MESSAGES.attachmentTooLarge);
      return reply.status(201).send(await activity.addAttachments(actor, request.params.id, files));
    },
  );
  r.get('/helpdesk/tickets/:id/attachments/:attachmentId/', { schema: { tags, params: attachmentParamSchema } }, async (request, reply) => {
    const file = await activity.openAttachment(requireAuth(request), request.params.id, request.params.attachmentId);
    const ascii = file.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
    return reply
      .header('Content-Type', file.type)
      .header('Content-Length', String(file.size))
      .header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .header('Cache-Control', 'private, max-age=300')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .send(file.stream);
  });
  r.delete(
    '/helpdesk/tickets/:id/attachments/:attachmentId/',
    { schema: { tags, params: attachmentParamSchema, response: { 200: ticketSchema } } },
    async (request) => activity.removeAttachment(requireAuth(request), request.params.id, request.params.attachmentId),
  );
}
