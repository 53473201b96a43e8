import {
  idParamSchema,
  inboxListSchema,
  inboxQuerySchema,
  inboxUpdateResultSchema,
  inboxUpdateSchema,
  markAllResultSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/context.ts';
import type { NotificationService } from './service.ts';

/** SPEC 7: the inbox calls. Every one acts on the caller's own inbox only. */
export function notificationRoutes(app: FastifyInstance, opts: { notifications: NotificationService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { notifications } = opts;
  const tags = ['notification'];

  r.get('/notification/inbox/', { schema: { tags, querystring: inboxQuerySchema, response: { 200: inboxListSchema } } }, async (request) =>
    notifications.list(requireAuth(request), request.query),
  );
  r.put(
    '/notification/inbox/:id/',
    { schema: { tags, params: idParamSchema, body: inboxUpdateSchema, response: { 200: inboxUpdateResultSchema } } },
    async (request) => notifications.update(requireAuth(request), request.params.id, request.body),
  );
  r.post('/notification/inbox/mark-all-as-read/', { schema: { tags, response: { 200: markAllResultSchema } } }, async (request) =>
    notifications.markAllRead(requireAuth(request)),
  );
}
