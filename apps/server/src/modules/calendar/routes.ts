import {
  activeWindowSchema,
  calendarDeleteQuerySchema,
  calendarEventInputSchema,
  calendarEventListQuerySchema,
  calendarEventListSchema,
  calendarEventSchema,
  calendarItemListSchema,
  calendarOptionsSchema,
  calendarRangeQuerySchema,
  calendarRescheduleResultSchema,
  calendarRescheduleSchema,
  calendarUpdateSchema,
  idParamSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { accessGuard, objectGuard, requireAuth } from '../../platform/auth/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { CalendarService } from './service.ts';
import type { Windows } from './windows.ts';

const tags = ['calendar'];
const E = '/api/calendar/events';

export function calendarRoutes(app: FastifyInstance, deps: { calendar: CalendarService; windows: Windows; directory: SiteDirectory }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { calendar } = deps;
  const adders = accessGuard(async (request) => {
    if (!calendar.rightsOf(requireAuth(request)).add) throw forbidden();
  });
  const changeable = objectGuard(idParamSchema, (_request, { id }, auth) => calendar.mayChange(auth, id));

  r.get('/api/calendar/options/', { schema: { tags, response: { 200: calendarOptionsSchema } } }, async (request) =>
    calendar.options(requireAuth(request)),
  );
  r.get(
    '/api/calendar/items/',
    { schema: { tags, querystring: calendarRangeQuerySchema, response: { 200: calendarItemListSchema } } },
    async (request) => calendar.items(requireAuth(request), request.query),
  );
  r.get(
    `${E}/`,
    { schema: { tags, querystring: calendarEventListQuerySchema, response: { 200: calendarEventListSchema } } },
    async (request) => calendar.list(requireAuth(request), request.query),
  );
  r.post(
    `${E}/`,
    { preHandler: adders, schema: { tags, body: calendarEventInputSchema, response: { 201: calendarEventSchema } } },
    async (request, reply) => {
      const event = await calendar.create(requireAuth(request), request.body, originOf(request));
      return reply.code(201).send(event);
    },
  );
  r.get(`${E}/:id/`, { schema: { tags, params: idParamSchema, response: { 200: calendarEventSchema } } }, async (request) =>
    calendar.get(requireAuth(request), request.params.id),
  );
  r.put(
    `${E}/:id/`,
    { preHandler: changeable, schema: { tags, params: idParamSchema, body: calendarUpdateSchema, response: { 200: calendarEventSchema } } },
    async (request) => calendar.update(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.post(
    `${E}/:id/reschedule/`,
    {
      preHandler: changeable,
      schema: { tags, params: idParamSchema, body: calendarRescheduleSchema, response: { 200: calendarRescheduleResultSchema } },
    },
    async (request) => calendar.reschedule(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    `${E}/:id/`,
    { schema: { tags, params: idParamSchema, querystring: calendarDeleteQuerySchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await calendar.remove(requireAuth(request), request.params.id, request.query.occurrence, originOf(request));
      return reply.code(204).send(null);
    },
  );
  // The device page shows whether maintenance comes from a window (view_device and the device's site).
  r.get(
    '/api/calendar/devices/:id/window/',
    { schema: { tags, params: idParamSchema, response: { 200: activeWindowSchema } } },
    async (request) => {
      const auth = requireAuth(request);
      if (!auth.permissions.has('view_device') && !calendar.rightsOf(auth).view) throw forbidden();
      const device = await deps.directory.device(auth.tenantId, request.params.id);
      if (!device) throw notFound();
      if (device.assetId !== null && !auth.roles.some((r) => ['sysadmin', 'customeradmin', 'localadmin'].includes(r))) {
        const sites = await deps.directory.visibleAssetIds(auth.tenantId, auth.userId, auth.roles);
        if (sites !== 'all' && !sites.includes(device.assetId)) throw notFound();
      }
      return { window: await deps.windows.activeOn(auth.tenantId, request.params.id) };
    },
  );
}
