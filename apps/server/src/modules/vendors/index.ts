import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { HelpdeskForVendors } from '../helpdesk/index.ts';
import type { UserDirectory } from '../users/directory.ts';
import { vendorRoutes } from './routes.ts';
import { createVendorService, type VendorService } from './service.ts';

export { createVendorDirectory } from './directory.ts';

export interface VendorsPorts {
  db: Db;
  events: EventBus;
  clock: Clock;
  /** The vendors' user accounts are users of the tenant of role vendor. */
  users: UserDirectory;
  /** Issue types and the tickets assigned to a vendor belong to the helpdesk. */
  helpdesk: HelpdeskForVendors;
}

export interface VendorsPort {
  service: VendorService;
}

/** The vendors directory: companies, the sites and issue types they serve, their user accounts and open tickets. */
export function createVendorsModule(ports: VendorsPorts): DomainModule<VendorsPort> {
  const service = createVendorService(ports);
  return {
    ports: { service },
    async register(app) {
      await app.register(async (scope) => vendorRoutes(scope, service));
    },
  };
}
