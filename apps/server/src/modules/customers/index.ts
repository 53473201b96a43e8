import type { Db } from '../../platform/db.ts';
import type { DomainModule } from '../../platform/module.ts';
import { customerRoutes } from './routes.ts';
import { type CustomerService, createCustomerService } from './service.ts';

export type { CustomerService } from './service.ts';

export interface CustomersPort {
  /** The tenant's settings, read by most domains. */
  customers: CustomerService;
}

/** Tenant settings (the customer of the platform, SPEC 2.1). */
export function createCustomersModule(ports: { db: Db }): DomainModule<CustomersPort> {
  const customers = createCustomerService(ports.db);
  return {
    ports: { customers },
    register(app) {
      customerRoutes(app, { customers });
    },
  };
}
