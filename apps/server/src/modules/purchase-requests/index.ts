import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { TicketLinks } from '../helpdesk/index.ts';
import type { InventoryPurchasing } from '../inventory/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import { purchaseRequestRoutes } from './routes.ts';
import { createPurchaseRequestService, type PurchaseRequestService } from './service.ts';

export type { PurchaseRequestService } from './service.ts';

export interface PurchaseRequestPorts {
  db: Db;
  events: EventBus;
  clock: Clock;
  directory: SiteDirectory;
  users: UserDirectory;
  /** Tickets a request is raised from (only those the user may see) and their history lines. */
  tickets: TicketLinks;
  /** Stores the caller sees, items, low stock, and the receipt of a request into the ledger. */
  inventory: InventoryPurchasing;
}

export interface PurchaseRequestPort {
  requests: PurchaseRequestService;
}

/** Purchase requests for spare parts (issue 18). */
export function createPurchaseRequestsModule(ports: PurchaseRequestPorts): DomainModule<PurchaseRequestPort> {
  const requests = createPurchaseRequestService(ports);
  return {
    ports: { requests },
    register(app) {
      purchaseRequestRoutes(app, { requests });
    },
  };
}
