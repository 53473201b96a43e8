import type { Db } from '../../platform/db.ts';
import type { DomainModule } from '../../platform/module.ts';
import type { OutboundNetworks } from '../../platform/outbound-networks.ts';
import { customerRoutes } from './routes.ts';
import { type CustomerService, createCustomerService } from './service.ts';

export type { CustomerService as TenantSettingsService } from './service.ts';

export interface TenantSettingsPort {
  /** The tenant's settings, read by most domains. */
  tenantSettings: CustomerService;
}

/** Tenant settings (the customer of the platform, SPEC 2.1). */
export function createTenantSettingsModule(ports: { db: Db; outbound: OutboundNetworks }): DomainModule<TenantSettingsPort> {
  const customers = createCustomerService(ports.db, ports.outbound);
  return {
    ports: { tenantSettings: customers },
    register(app) {
      customerRoutes(app, { customers });
    },
  };
}
