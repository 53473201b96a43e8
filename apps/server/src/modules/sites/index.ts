import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.ts';
import { createCatalogService } from '../devices/catalog-service.ts';
import { deviceRoutes } from '../devices/routes.ts';
import { createDeviceService, type TicketCreator } from '../devices/service.ts';
import { userRoutes } from '../users/routes.ts';
import { createUserService } from '../users/service.ts';
import { createSiteCustomerService } from './customers-service.ts';
import { createSiteDirectory } from './directory.ts';
import { siteRoutes } from './routes.ts';
import { createSiteService } from './service.ts';

/** Alarm-action tickets go through the helpdesk's port when the helpdesk is installed (SPEC 2.14). */
function ticketCreator(context: AppContext): TicketCreator | undefined {
  const helpdesk = context.helpdesk;
  if (!helpdesk) return undefined;
  return async (input) => {
    const ticket = await helpdesk.createTicket(input.tenantId, {
      type: 'AlarmTicket',
      title: input.title.slice(0, 250),
      description: input.description,
      event: 'Device Alarm Action',
      subEvent: input.subject,
      entityId: input.deviceId,
      locationId: input.assetId,
      ownerId: input.userId,
      metadata: { telemetryKey: input.telemetryKey, telemetryValue: input.telemetryValue, updatedDeviceIds: input.updatedDeviceIds },
    });
    return ticket.id;
  };
}

const registered = new WeakMap<object, { context: AppContext }>();
/** The context the sites module registered with on this server (tests reach the event bus through it). */
export const sitesOf = (server: object) => registered.get(server);

/**
 * Sites and devices: assets, customers, devices, templates, mappings, users' site assignments. Registers first so
 * that the domains after it find `context.directory` installed.
 */
export function sitesModule(app: FastifyInstance, context: AppContext) {
  const { db } = context;
  registered.set(app.server, { context });
  context.directory = createSiteDirectory(db);
  const sites = createSiteService(db);
  const siteCustomers = createSiteCustomerService(db, context.config);
  const catalog = createCatalogService(db);
  const devices = createDeviceService({
    db,
    events: context.events,
    settings: (tenantId) => context.customers.settings(tenantId),
    createTicket: () => ticketCreator(context),
    provisionCustomer: siteCustomers.byProvisionKey,
  });
  siteRoutes(app, { sites, siteCustomers, secureCookies: context.config.auth.secureCookies });
  deviceRoutes(app, { db, devices, catalog, sites, provisionRateLimit: 30 });
  userRoutes(app, { users: createUserService(db) });
}
