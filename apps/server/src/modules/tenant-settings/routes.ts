import {
  customerLogoSchema,
  customerSchema,
  customerSettingsResponseSchema,
  customerSettingsUpdateSchema,
  idParamSchema,
  outboundNetworksSchema,
  outboundNetworksUpdateSchema,
  systemAlertCreateSchema,
  systemAlertListSchema,
  systemAlertSchema,
  versionSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { originOf } from '../../platform/audit.ts';
import { requireTenant, roleGuard } from '../../platform/auth/context.ts';
import type { CustomerService } from './service.ts';

export function customerRoutes(app: FastifyInstance, opts: { customers: CustomerService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { customers } = opts;
  const tags = ['customer'];
  const admins = roleGuard('sysadmin', 'customeradmin');

  r.get('/iotapp/current-customer/', { schema: { tags, response: { 200: customerSchema } } }, async (request) =>
    customers.current(requireTenant(request).id),
  );
  r.get(
    '/iotapp/customer-logo/',
    { config: { access: { public: true } }, schema: { tags, response: { 200: customerLogoSchema } } },
    async (request) => customers.logo(requireTenant(request).id),
  );
  r.get('/iotapp/customer-settings/', { schema: { tags, response: { 200: customerSettingsResponseSchema } } }, async (request) =>
    customers.settingsAnswer(requireTenant(request).id),
  );
  r.put(
    '/iotapp/customer-settings/',
    {
      preHandler: roleGuard('customeradmin'),
      schema: { tags, body: customerSettingsUpdateSchema, response: { 200: customerSettingsResponseSchema } },
    },
    async (request) => ({
      settings: await customers.updateSettings(originOf(request), request.body),
    }),
  );
  r.get('/app-version/', { config: { access: { public: true } }, schema: { tags, response: { 200: versionSchema } } }, async (request) =>
    customers.version(requireTenant(request).id),
  );

  r.get(
    '/api/admin/outbound-networks/',
    { preHandler: roleGuard('sysadmin'), schema: { tags, response: { 200: outboundNetworksSchema } } },
    async (request) => customers.outboundNetworks(requireTenant(request).id),
  );
  r.put(
    '/api/admin/outbound-networks/',
    {
      preHandler: roleGuard('sysadmin'),
      schema: { tags, body: outboundNetworksUpdateSchema, response: { 200: outboundNetworksSchema } },
    },
    async (request) => customers.setOutboundNetworks(originOf(request), request.body.networks),
  );

  r.get('/notification/system-alerts/', { schema: { tags: ['notification'], response: { 200: systemAlertListSchema } } }, async (request) =>
    customers.alerts(requireTenant(request).id),
  );
  r.post(
    '/notification/system-alerts/',
    { preHandler: admins, schema: { tags: ['notification'], body: systemAlertCreateSchema, response: { 201: systemAlertSchema } } },
    async (request, reply) => {
      const alert = await customers.addAlert(originOf(request), request.body.message);
      return reply.status(201).send(alert);
    },
  );
  r.delete(
    '/notification/system-alerts/:id/',
    { preHandler: admins, schema: { tags: ['notification'], params: idParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await customers.removeAlert(originOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
