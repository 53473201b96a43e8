import {
  alarmActionLogListSchema,
  alarmActionResultSchema,
  alarmActionSchema,
  compactGroupedSchema,
  compactListQuerySchema,
  compactListSchema,
  countResultSchema,
  DEVICE_TYPE_LABELS,
  deviceAccessTokenSchema,
  deviceAssignSchema,
  deviceInputSchema,
  deviceListQuerySchema,
  deviceListSchema,
  deviceSchema,
  deviceTemplateInputSchema,
  deviceTemplateListSchema,
  deviceTemplateSchema,
  deviceTemplateUpdateSchema,
  deviceTypeListSchema,
  deviceTypeSchema,
  deviceUpdateSchema,
  entitiesQueryCountSchema,
  entityMappingInputSchema,
  entityMappingListSchema,
  entityMappingQuerySchema,
  entityMappingSchema,
  idParamSchema,
  provisionRequestSchema,
  provisionResponseSchema,
  statusCountsQuerySchema,
  statusCountsSchema,
  templateListQuerySchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { viewerOf } from '../sites/scope.ts';
import type { SiteService } from '../sites/service.ts';
import type { CatalogService } from './catalog-service.ts';
import { countEntities } from './query-count.ts';
import type { DeviceService } from './service.ts';

export function deviceRoutes(
  app: FastifyInstance,
  opts: { db: Db; devices: DeviceService; catalog: CatalogService; sites: SiteService; provisionRateLimit: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { devices, catalog, sites } = opts;
  const tags = ['devices'];
  const viewer = (request: FastifyRequest) => viewerOf(requireAuth(request));

  r.get(
    '/iotapp/devices/',
    {
      preHandler: permissionGuard('view_device'),
      schema: { tags, querystring: deviceListQuerySchema, response: { 200: z.union([deviceListSchema, deviceTypeListSchema]) } },
    },
    async (request) =>
      request.query.groupBy === 'type' ? devices.typeList(viewer(request), request.query) : devices.list(viewer(request), request.query),
  );
  r.get(
    '/iotapp/devices/compact-list/',
    {
      preHandler: permissionGuard('view_device'),
      schema: { tags, querystring: compactListQuerySchema, response: { 200: z.union([compactListSchema, compactGroupedSchema]) } },
    },
    async (request) => devices.compact(viewer(request), request.query),
  );
  r.get(
    '/iotapp/devices/status-counts/',
    {
      preHandler: permissionGuard('view_device'),
      schema: { tags, querystring: statusCountsQuerySchema, response: { 200: statusCountsSchema } },
    },
    async (request) => {
      const rows = await sites.statusCounts(viewer(request), request.query);
      const wanted = request.query.types ?? rows.map((row) => row.type);
      return {
        contents: wanted.map((type) => {
          const row = rows.find((x) => x.type === type);
          return {
            type: deviceTypeSchema.parse(type),
            label: DEVICE_TYPE_LABELS[type as keyof typeof DEVICE_TYPE_LABELS] ?? type,
            total: row?.total ?? 0,
            online: row?.online ?? 0,
            offline: row?.offline ?? 0,
            notC: row?.notC ?? 0,
          };
        }),
      };
    },
  );
  r.get(
    '/iotapp/devices/:id/',
    { preHandler: permissionGuard('view_device'), schema: { tags, params: idParamSchema, response: { 200: deviceSchema } } },
    async (request) => devices.detail(viewer(request), request.params.id),
  );
  r.post(
    '/iotapp/devices/:id/access-token/',
    {
      preHandler: permissionGuard('change_device'),
      schema: { tags, params: idParamSchema, response: { 200: deviceAccessTokenSchema } },
    },
    async (request) => devices.accessToken(viewer(request), request.params.id, originOf(request)),
  );
  r.post(
    '/iotapp/devices/',
    { preHandler: permissionGuard('add_device'), schema: { tags, body: deviceInputSchema, response: { 201: deviceSchema } } },
    async (request, reply) => reply.status(201).send(await devices.create(viewer(request), request.body, originOf(request))),
  );
  r.put(
    '/iotapp/devices/:id/',
    {
      preHandler: permissionGuard('change_device'),
      schema: { tags, params: idParamSchema, body: deviceUpdateSchema, response: { 200: deviceSchema } },
    },
    async (request) => devices.update(viewer(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/iotapp/devices/:id/',
    { preHandler: permissionGuard('delete_device'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await devices.remove(viewer(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
  r.post(
    '/iotapp/devices/assign/',
    {
      preHandler: permissionGuard('change_device'),
      schema: { tags, body: deviceAssignSchema, response: { 200: z.object({ updated: z.number().int() }) } },
    },
    async (request) => devices.assign(viewer(request), request.body, originOf(request)),
  );
  r.post(
    '/iotapp/devices/:id/add-to-inventory/',
    {
      preHandler: permissionGuard('add_device'),
      schema: { tags, params: idParamSchema, body: deviceUpdateSchema, response: { 200: deviceSchema } },
    },
    async (request) => devices.addToInventory(viewer(request), request.params.id, request.body, originOf(request)),
  );
  r.post(
    '/iotapp/devices/:id/alarm-actions/',
    {
      preHandler: permissionGuard('edit_alarm_config'),
      schema: { tags, params: idParamSchema, body: alarmActionSchema, response: { 200: alarmActionResultSchema } },
    },
    async (request) => devices.alarmAction(viewer(request), request.params.id, request.body),
  );
  r.get(
    '/iotapp/devices/:id/alarm-actions/',
    {
      preHandler: permissionGuard('view_device'),
      schema: {
        tags,
        params: idParamSchema,
        querystring: z.strictObject({
          page: z.coerce.number().int().min(1).default(1),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: alarmActionLogListSchema },
      },
    },
    async (request) => devices.alarmActionLog(viewer(request), request.params.id, request.query.page, request.query.limit),
  );

  r.post(
    '/iotapp/entities-query-count/',
    { preHandler: permissionGuard('view_device'), schema: { tags, body: entitiesQueryCountSchema, response: { 200: countResultSchema } } },
    async (request) => ({ count: await countEntities(opts.db, viewer(request), request.body) }),
  );

  // Device templates per type and vendor.
  const ttags = ['device-templates'];
  const tenantOf = (request: FastifyRequest) => requireAuth(request).tenantId;
  r.get(
    '/iotapp/device-templates/',
    {
      preHandler: permissionGuard('view_device'),
      schema: { tags: ttags, querystring: templateListQuerySchema, response: { 200: deviceTemplateListSchema } },
    },
    async (request) => catalog.listTemplates(tenantOf(request), request.query),
  );
  r.get(
    '/iotapp/device-templates/:id/',
    { preHandler: permissionGuard('view_device'), schema: { tags: ttags, params: idParamSchema, response: { 200: deviceTemplateSchema } } },
    async (request) => catalog.getTemplate(tenantOf(request), request.params.id),
  );
  r.post(
    '/iotapp/device-templates/',
    {
      preHandler: permissionGuard('add_device'),
      schema: { tags: ttags, body: deviceTemplateInputSchema, response: { 201: deviceTemplateSchema } },
    },
    async (request, reply) => reply.status(201).send(await catalog.createTemplate(tenantOf(request), request.body, originOf(request))),
  );
  r.put(
    '/iotapp/device-templates/:id/',
    {
      preHandler: permissionGuard('change_device'),
      schema: { tags: ttags, params: idParamSchema, body: deviceTemplateUpdateSchema, response: { 200: deviceTemplateSchema } },
    },
    async (request) => catalog.updateTemplate(tenantOf(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/iotapp/device-templates/:id/',
    { preHandler: permissionGuard('delete_device'), schema: { tags: ttags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await catalog.deleteTemplate(tenantOf(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  // Entity mappings between sites and devices.
  const mtags = ['entity-mappings'];
  r.get(
    '/iotapp/entity-mappings/',
    {
      preHandler: permissionGuard('view_device'),
      schema: { tags: mtags, querystring: entityMappingQuerySchema, response: { 200: entityMappingListSchema } },
    },
    async (request) => catalog.listMappings(viewer(request), request.query),
  );
  r.post(
    '/iotapp/entity-mappings/',
    {
      preHandler: permissionGuard('change_device'),
      schema: { tags: mtags, body: entityMappingInputSchema, response: { 201: entityMappingSchema } },
    },
    async (request, reply) => reply.status(201).send(await catalog.createMapping(viewer(request), request.body, originOf(request))),
  );
  r.delete(
    '/iotapp/entity-mappings/:id/',
    { preHandler: permissionGuard('change_device'), schema: { tags: mtags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await catalog.deleteMapping(viewer(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  // Device self-provisioning (ThingsBoard's provision API): a device presenting its customer's key and secret is
  // registered as discovered in that customer's tenant (the key names it, whatever host the device reached),
  // waiting for an administrator to add it to the inventory. The same over MQTT: see the device-api module.
  r.post(
    '/api/v1/provision',
    {
      config: {
        access: { tenantless: true, public: true, csrf: false },
        rateLimit: { max: opts.provisionRateLimit, timeWindow: '1 minute' },
      },
      schema: { tags: ['device-api'], body: provisionRequestSchema, response: { 200: provisionResponseSchema } },
    },
    async (request) => devices.provision(request.body),
  );
}
