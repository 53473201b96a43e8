import { createReadStream } from 'node:fs';
import {
  analyticsLinkInputSchema,
  analyticsLinkListQuerySchema,
  analyticsLinkListSchema,
  analyticsLinkSchema,
  analyticsReportSchema,
  componentInputSchema,
  componentListQuerySchema,
  componentListSchema,
  componentSchema,
  DASHBOARD_MESSAGES,
  DASHBOARD_PERMISSIONS,
  dashboardAudienceSchema,
  dashboardDetailSchema,
  dashboardFolderSchema,
  dashboardInputSchema,
  dashboardListQuerySchema,
  dashboardListSchema,
  dashboardSummarySchema,
  folderDetailSchema,
  folderInputSchema,
  folderListQuerySchema,
  folderListSchema,
  idCoerced,
  idParamSchema,
  LINK_TOKEN_HEADER,
  linkCameraMediaParamsSchema,
  linkCameraParamsSchema,
  linkOpenInputSchema,
  linkTokenSchema,
  linkViewSchema,
  linkWidgetDataInputSchema,
  moveInputSchema,
  okSchema,
  reorderInputSchema,
  userDashboardsSchema,
  versionDetailSchema,
  versionListQuerySchema,
  versionListSchema,
  widgetDataBatchInputSchema,
  widgetDataBatchSchema,
  widgetDataInputSchema,
  widgetDataResponseSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { objectGuard, permissionGuard, requireAuth, requireTenant } from '../../platform/auth/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import { type LinkService, refusal } from './links.ts';
import type { DashboardService } from './service.ts';
import type { WidgetRunner } from './widgets.ts';

/** Public link routes: no session, their own rate limit, no CSRF (the token in the body is the credential). */
const linkAccess = { access: { public: true, csrf: false }, rateLimit: { max: 240, timeWindow: '1 minute' } };
const emptyQuery = z.strictObject({});

/** The link token of a camera tile's video request (a header: never in the URL); a missing or bad one is refused. */
function linkTokenOf(request: FastifyRequest): string {
  const parsed = linkTokenSchema.safeParse(request.headers[LINK_TOKEN_HEADER]);
  if (!parsed.success) throw refusal('malformed');
  return parsed.data;
}

/** A camera tile's live video on a link: a playlist and a segment about every second per tile. */
const linkVideoAccess = { access: { public: true, csrf: false }, rateLimit: { max: 1200, timeWindow: '1 minute' } };

/** SPEC 7 dashboards, folders, components, versions, widget data, analytics links and the public link view. */
export function dashboardRoutes(app: FastifyInstance, opts: { dashboards: DashboardService; links: LinkService; runner: WidgetRunner }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { dashboards, links, runner } = opts;
  const adders = permissionGuard(DASHBOARD_PERMISSIONS.add);
  const changers = permissionGuard(DASHBOARD_PERMISSIONS.change);
  const editable = objectGuard(idParamSchema, (_request, { id }, auth) => dashboards.mayEdit(auth, id));
  const tags = ['dashboards'];
  const versionParams = z.object({ id: idCoerced, version: z.coerce.number().int().min(1).max(2_147_483_647) });
  const linkParams = z.object({ id: z.uuid() });

  r.get('/iotapp/user-dashboards/', { schema: { tags, response: { 200: userDashboardsSchema } } }, async (request) =>
    dashboards.userDashboards(requireAuth(request)),
  );

  r.get('/iotapp/dashboards/audience/', { schema: { tags, response: { 200: dashboardAudienceSchema } } }, async (request) =>
    dashboards.audience(requireAuth(request)),
  );

  // folders (static segments before /:id/)
  r.get(
    '/iotapp/dashboards/folders/',
    { schema: { tags, querystring: folderListQuerySchema, response: { 200: folderListSchema } } },
    async (request) => dashboards.folders(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/dashboards/folders/',
    { preHandler: adders, schema: { tags, body: folderInputSchema, response: { 201: dashboardFolderSchema } } },
    async (request, reply) => reply.status(201).send(await dashboards.createFolder(requireAuth(request), request.body, originOf(request))),
  );
  r.get(
    '/iotapp/dashboards/folders/:id/',
    { schema: { tags, params: idParamSchema, response: { 200: folderDetailSchema } } },
    async (request) => dashboards.folder(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/dashboards/folders/:id/',
    { preHandler: changers, schema: { tags, params: idParamSchema, body: folderInputSchema, response: { 200: dashboardFolderSchema } } },
    async (request) => dashboards.updateFolder(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.post(
    '/iotapp/dashboards/folders/:id/move/',
    { preHandler: changers, schema: { tags, params: idParamSchema, body: moveInputSchema, response: { 200: dashboardFolderSchema } } },
    async (request) => dashboards.moveFolder(requireAuth(request), request.params.id, request.body),
  );
  r.delete(
    '/iotapp/dashboards/folders/:id/',
    { schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await dashboards.removeFolder(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  // components
  r.get(
    '/iotapp/dashboards/components/',
    { schema: { tags, querystring: componentListQuerySchema, response: { 200: componentListSchema } } },
    async (request) => dashboards.components(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/dashboards/components/',
    { preHandler: adders, schema: { tags, body: componentInputSchema, response: { 201: componentSchema } } },
    async (request, reply) =>
      reply.status(201).send(await dashboards.createComponent(requireAuth(request), request.body, originOf(request))),
  );
  r.get(
    '/iotapp/dashboards/components/:id/',
    { schema: { tags, params: idParamSchema, response: { 200: componentSchema } } },
    async (request) => dashboards.component(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/dashboards/components/:id/',
    { preHandler: changers, schema: { tags, params: idParamSchema, body: componentInputSchema, response: { 200: componentSchema } } },
    async (request) => dashboards.updateComponent(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/iotapp/dashboards/components/:id/',
    { schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await dashboards.removeComponent(requireAuth(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  // widget data with the viewer's scope
  r.post(
    '/iotapp/dashboards/widget-data/',
    { schema: { tags, body: widgetDataInputSchema, response: { 200: widgetDataResponseSchema } } },
    async (request) => {
      const actor = requireAuth(request);
      const body = request.body;
      let widget: import('@sitewatch/contracts').Widget;
      if ('widget' in body) {
        widget = body.widget;
      } else {
        const row = await dashboards.visibleDashboard(actor, body.dashboardId);
        const found = dashboards.parseWidgets(row.widgets).find((w) => w.id === body.widgetId);
        if (!found) throw notFound(DASHBOARD_MESSAGES.widgetUnknown);
        widget = found;
      }
      if (!actor.permissions.has('view_dashboard')) throw notFound(DASHBOARD_MESSAGES.notFound);
      return runner.run(await links.viewerScope(actor), widget, body.range ?? null);
    },
  );
  // the first screen's widgets of a saved dashboard in one request (one sign-in check and scope for all of them)
  r.post(
    '/iotapp/dashboards/widget-data/batch/',
    { schema: { tags, body: widgetDataBatchInputSchema, response: { 200: widgetDataBatchSchema } } },
    async (request) => {
      const actor = requireAuth(request);
      const row = await dashboards.visibleDashboard(actor, request.body.dashboardId);
      if (!actor.permissions.has('view_dashboard')) throw notFound(DASHBOARD_MESSAGES.notFound);
      const widgets = dashboards.parseWidgets(row.widgets);
      const scope = await links.viewerScope(actor);
      const contents = await Promise.all(
        [...new Set(request.body.widgetIds)].map(async (widgetId) => {
          const widget = widgets.find((w) => w.id === widgetId);
          if (!widget) return { widgetId, answer: null };
          try {
            return { widgetId, answer: await runner.run(scope, widget, null) };
          } catch (error) {
            // a refused or failed widget asks again on its own and shows its own message
            if (error instanceof HttpError) return { widgetId, answer: null };
            throw error;
          }
        }),
      );
      return { contents };
    },
  );
  r.post(
    '/iotapp/dashboards/reorder/',
    { preHandler: changers, schema: { tags, body: reorderInputSchema, response: { 200: okSchema } } },
    async (request) => dashboards.reorder(requireAuth(request), request.body),
  );

  // dashboards
  r.get(
    '/iotapp/dashboards/',
    { schema: { tags, querystring: dashboardListQuerySchema, response: { 200: dashboardListSchema } } },
    async (request) => dashboards.list(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/dashboards/',
    { preHandler: adders, schema: { tags, body: dashboardInputSchema, response: { 201: dashboardDetailSchema } } },
    async (request, reply) => reply.status(201).send(await dashboards.create(requireAuth(request), request.body, originOf(request))),
  );
  r.get('/iotapp/dashboards/:id/', { schema: { tags, params: idParamSchema, response: { 200: dashboardDetailSchema } } }, async (request) =>
    dashboards.get(requireAuth(request), request.params.id),
  );
  r.put(
    '/iotapp/dashboards/:id/',
    { preHandler: editable, schema: { tags, params: idParamSchema, body: dashboardInputSchema, response: { 200: dashboardDetailSchema } } },
    async (request) => dashboards.update(requireAuth(request), request.params.id, request.body, originOf(request)),
  );
  r.delete('/iotapp/dashboards/:id/', { schema: { tags, params: idParamSchema, response: { 204: z.null() } } }, async (request, reply) => {
    await dashboards.remove(requireAuth(request), request.params.id, originOf(request));
    return reply.status(204).send(null);
  });
  r.post(
    '/iotapp/dashboards/:id/move/',
    { preHandler: editable, schema: { tags, params: idParamSchema, body: moveInputSchema, response: { 200: dashboardSummarySchema } } },
    async (request) => dashboards.move(requireAuth(request), request.params.id, request.body),
  );
  r.get(
    '/iotapp/dashboards/:id/versions/',
    { schema: { tags, params: idParamSchema, querystring: versionListQuerySchema, response: { 200: versionListSchema } } },
    async (request) => dashboards.versions(requireAuth(request), request.params.id, request.query),
  );
  r.get(
    '/iotapp/dashboards/:id/versions/:version/',
    { schema: { tags, params: versionParams, response: { 200: versionDetailSchema } } },
    async (request) => dashboards.version(requireAuth(request), request.params.id, request.params.version),
  );
  r.post(
    '/iotapp/dashboards/:id/versions/:version/restore/',
    { schema: { tags, params: versionParams, response: { 200: dashboardDetailSchema } } },
    async (request) => dashboards.restore(requireAuth(request), request.params.id, request.params.version, originOf(request)),
  );

  // analytics links
  r.get(
    '/iotapp/analytics-links/',
    { schema: { tags, querystring: analyticsLinkListQuerySchema, response: { 200: analyticsLinkListSchema } } },
    async (request) => links.list(requireAuth(request), request.query),
  );
  r.post(
    '/iotapp/analytics-links/',
    {
      preHandler: permissionGuard('share_dashboard'),
      schema: { tags, body: analyticsLinkInputSchema, response: { 201: analyticsLinkSchema } },
    },
    async (request, reply) => reply.status(201).send(await links.create(requireAuth(request), request.body, originOf(request))),
  );
  r.post(
    '/iotapp/analytics-links/:id/revoke/',
    { preHandler: permissionGuard('share_dashboard'), schema: { tags, params: linkParams, response: { 200: analyticsLinkSchema } } },
    async (request) => links.revoke(requireAuth(request), request.params.id, originOf(request)),
  );
  r.get('/iotapp/analytics-dashboards/', { schema: { tags, response: { 200: analyticsReportSchema } } }, async (request) =>
    links.report(requireAuth(request)),
  );

  // public: the shared link view
  r.post(
    '/iotapp/analytics-dashboard/open/',
    { config: linkAccess, schema: { tags, body: linkOpenInputSchema, response: { 200: linkViewSchema } } },
    async (request) => links.open(requireTenant(request).id, request.body.dashboardId, request.body.token),
  );
  r.get(
    '/iotapp/analytics-dashboard/:dashboardId/cameras/:widgetId/live.m3u8',
    { config: linkVideoAccess, schema: { tags, params: linkCameraParamsSchema, querystring: emptyQuery } },
    async (request, reply) => {
      const { dashboardId, widgetId } = request.params;
      const text = await links.cameraPlaylist(requireTenant(request).id, dashboardId, linkTokenOf(request), widgetId);
      return reply.header('content-type', 'application/vnd.apple.mpegurl').header('cache-control', 'no-store').send(text);
    },
  );
  r.get(
    '/iotapp/analytics-dashboard/:dashboardId/cameras/:widgetId/media/:run/:file',
    { config: linkVideoAccess, schema: { tags, params: linkCameraMediaParamsSchema, querystring: emptyQuery } },
    async (request, reply) => {
      const { dashboardId, widgetId, run, file } = request.params;
      const found = await links.cameraMedia(requireTenant(request).id, dashboardId, linkTokenOf(request), widgetId, run, file);
      return reply
        .header('content-type', file.endsWith('.mp4') ? 'video/mp4' : 'video/iso.segment')
        .header('content-length', String(found.size))
        .header('cache-control', 'no-store')
        .send(createReadStream(found.path));
    },
  );
  r.post(
    '/iotapp/analytics-dashboard/widget-data/',
    { config: linkAccess, schema: { tags, body: linkWidgetDataInputSchema, response: { 200: widgetDataResponseSchema } } },
    async (request) =>
      links.widgetData(
        requireTenant(request).id,
        request.body.dashboardId,
        request.body.token,
        request.body.widgetId,
        request.body.range ?? null,
      ),
  );
}
