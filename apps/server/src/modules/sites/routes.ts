import {
  assetDetailQuerySchema,
  assetInputSchema,
  assetListQuerySchema,
  assetListSchema,
  assetSchema,
  assetTreeQuerySchema,
  assetTreeSchema,
  assetTreeSearchQuerySchema,
  assetTreeSearchSchema,
  assetUpdateSchema,
  detailedSummaryQuerySchema,
  detailedSummarySchema,
  idParamSchema,
  iotCredentialsSchema,
  iotCredentialsUpdateSchema,
  mapQuerySchema,
  mapSiteListSchema,
  siteCustomerInputSchema,
  siteCustomerListQuerySchema,
  siteCustomerListSchema,
  siteCustomerSchema,
  siteCustomerUpdateSchema,
  siteDeviceCountsSchema,
  siteSummaryQuerySchema,
  siteSummarySchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { permissionGuard, requireAuth, roleGuard } from '../../platform/auth/context.ts';
import { secureTransport } from '../../platform/auth/secure-transport.ts';
import type { SiteCustomerService } from './customers-service.ts';
import { viewerOf } from './scope.ts';
import type { SiteService } from './service.ts';

export function siteRoutes(app: FastifyInstance, opts: { sites: SiteService; siteCustomers: SiteCustomerService; secureCookies: boolean }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sites, siteCustomers } = opts;
  const tags = ['assets'];
  const viewer = (request: Parameters<typeof requireAuth>[0]) => viewerOf(requireAuth(request));

  r.get(
    '/iotapp/assets/',
    { preHandler: permissionGuard('view_asset'), schema: { tags, querystring: assetListQuerySchema, response: { 200: assetListSchema } } },
    async (request) => sites.list(viewer(request), request.query),
  );
  r.get(
    '/iotapp/assets/:id/',
    {
      preHandler: permissionGuard('view_asset'),
      schema: { tags, params: idParamSchema, querystring: assetDetailQuerySchema, response: { 200: assetSchema } },
    },
    async (request) => sites.detail(viewer(request), request.params.id, request.query),
  );
  r.post(
    '/iotapp/assets/',
    { preHandler: permissionGuard('add_asset'), schema: { tags, body: assetInputSchema, response: { 201: assetSchema } } },
    async (request, reply) => reply.status(201).send(await sites.create(viewer(request), request.body, originOf(request))),
  );
  r.put(
    '/iotapp/assets/:id/',
    {
      preHandler: permissionGuard('change_asset'),
      schema: { tags, params: idParamSchema, body: assetUpdateSchema, response: { 200: assetSchema } },
    },
    async (request) => sites.update(viewer(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/iotapp/assets/:id/',
    { preHandler: permissionGuard('delete_asset'), schema: { tags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await sites.remove(viewer(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/iotapp/assets/tree/',
    { preHandler: permissionGuard('view_asset'), schema: { tags, querystring: assetTreeQuerySchema, response: { 200: assetTreeSchema } } },
    async (request) => sites.treeLevel(viewer(request), request.query.path ?? [], request.query.page, request.query.limit),
  );
  r.get(
    '/iotapp/assets/tree/search/',
    {
      preHandler: permissionGuard('view_asset'),
      schema: { tags, querystring: assetTreeSearchQuerySchema, response: { 200: assetTreeSearchSchema } },
    },
    async (request) => sites.treeSearch(viewer(request), request.query.searchText, request.query.limit),
  );
  r.get(
    '/iotapp/assets/site-summary/',
    {
      preHandler: permissionGuard('view_asset'),
      schema: { tags, querystring: siteSummaryQuerySchema, response: { 200: siteSummarySchema } },
    },
    async (request) => sites.siteSummary(viewer(request), request.query),
  );
  r.get(
    '/iotapp/assets/detailed-summary/',
    {
      preHandler: permissionGuard('view_asset'),
      schema: { tags, querystring: detailedSummaryQuerySchema, response: { 200: detailedSummarySchema } },
    },
    async (request) => sites.detailedSummary(viewer(request), request.query),
  );
  r.get(
    '/iotapp/assets/map/',
    { preHandler: permissionGuard('view_asset'), schema: { tags, querystring: mapQuerySchema, response: { 200: mapSiteListSchema } } },
    async (request) => sites.map(viewer(request), request.query),
  );
  r.get(
    '/iotapp/assets/:id/device-counts/',
    { preHandler: permissionGuard('view_asset'), schema: { tags, params: idParamSchema, response: { 200: siteDeviceCountsSchema } } },
    async (request) => sites.siteCounts(viewer(request), request.params.id),
  );

  // Customers: the organisations owning sites, managed by administrators.
  const ctags = ['customers'];
  const readers = roleGuard('sysadmin', 'customeradmin', 'localadmin');
  const writers = roleGuard('sysadmin', 'customeradmin');
  const tenantOf = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).tenantId;
  r.get(
    '/iotapp/customers/',
    { preHandler: readers, schema: { tags: ctags, querystring: siteCustomerListQuerySchema, response: { 200: siteCustomerListSchema } } },
    async (request) => siteCustomers.list(tenantOf(request), request.query),
  );
  r.get(
    '/iotapp/customers/:id/',
    { preHandler: readers, schema: { tags: ctags, params: idParamSchema, response: { 200: siteCustomerSchema } } },
    async (request) => siteCustomers.detail(tenantOf(request), request.params.id),
  );
  r.post(
    '/iotapp/customers/',
    { preHandler: writers, schema: { tags: ctags, body: siteCustomerInputSchema, response: { 201: siteCustomerSchema } } },
    async (request, reply) => reply.status(201).send(await siteCustomers.create(tenantOf(request), request.body, originOf(request))),
  );
  r.put(
    '/iotapp/customers/:id/',
    {
      preHandler: writers,
      schema: { tags: ctags, params: idParamSchema, body: siteCustomerUpdateSchema, response: { 200: siteCustomerSchema } },
    },
    async (request) => siteCustomers.update(tenantOf(request), request.params.id, request.body, originOf(request)),
  );
  r.delete(
    '/iotapp/customers/:id/',
    { preHandler: writers, schema: { tags: ctags, params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await siteCustomers.remove(tenantOf(request), request.params.id, originOf(request));
      return reply.status(204).send(null);
    },
  );
  r.get(
    '/iotapp/customers/:id/iot-fw-cred/',
    { preHandler: writers, schema: { tags: ctags, params: idParamSchema, response: { 200: iotCredentialsSchema } } },
    async (request) =>
      siteCustomers.credentials(
        tenantOf(request),
        request.params.id,
        request.headers.host ?? 'localhost',
        secureTransport(request, opts.secureCookies),
      ),
  );
  r.post(
    '/iotapp/customers/:id/iot-fw-cred/rotate/',
    { preHandler: writers, schema: { tags: ctags, params: idParamSchema, response: { 200: iotCredentialsSchema } } },
    async (request) => {
      const secret = await siteCustomers.rotate(tenantOf(request), request.params.id, originOf(request));
      return siteCustomers.credentials(
        tenantOf(request),
        request.params.id,
        request.headers.host ?? 'localhost',
        secureTransport(request, opts.secureCookies),
        secret,
      );
    },
  );
  r.put(
    '/iotapp/customers/:id/iot-fw-cred/',
    {
      preHandler: writers,
      schema: { tags: ctags, params: idParamSchema, body: iotCredentialsUpdateSchema, response: { 200: iotCredentialsSchema } },
    },
    async (request) => {
      await siteCustomers.setCredentials(tenantOf(request), request.params.id, request.body, originOf(request));
      return siteCustomers.credentials(
        tenantOf(request),
        request.params.id,
        request.headers.host ?? 'localhost',
        secureTransport(request, opts.secureCookies),
      );
    },
  );
}
