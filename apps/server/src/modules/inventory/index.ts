import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { DeviceRecords } from '../devices/index.ts';
import type { TicketLinks } from '../helpdesk/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import { createStoreAccess } from './access.ts';
import { createMoveService, type MoveService } from './moves.ts';
import { createInventoryReports, createPurchasing, type InventoryPurchasing, type InventoryReports } from './report.ts';
import { balanceMismatches, ledgerOnHand } from './repository.ts';
import { inventoryRoutes } from './routes.ts';
import { type CatalogService, createCatalogService } from './service.ts';

export interface InventoryPorts {
  db: Db;
  events: EventBus;
  clock: Clock;
  /** Which sites a user sees, and site names of stores. */
  directory: SiteDirectory;
  /** Store managers and the names in the ledger. */
  users: UserDirectory;
  /** Tickets stock is issued to (only those the user may see) and their history lines. */
  tickets: TicketLinks;
  /** A replaced device takes the spare's serial, make and model, in the movement's transaction. */
  devices: Pick<DeviceRecords, 'device' | 'replaceHardware'>;
}

export interface InventoryPort {
  catalog: CatalogService;
  moves: MoveService;
  /** On hand of an item in a store by the ledger alone (tests and benches compare it with the lists). */
  ledgerOnHand(tenantId: number, itemId: number, storeId: number): Promise<number>;
  /** Every (item, store) whose derived balance differs from the ledger, or is negative: empty when all is well. */
  balanceMismatches(tenantId: number): Promise<Array<{ itemId: number; storeId: number; balance: number; ledger: number }>>;
  /** /inventory-report's stock, movements and consumption, over the stores a caller sees. */
  reports: InventoryReports;
  /** Stores, items and receipts for purchase requests. */
  purchasing: InventoryPurchasing;
}

export type { InventoryPurchasing, InventoryReports } from './report.ts';

/** Inventory of spares: stores, items, serial units and the append-only stock ledger. */
export function createInventoryModule(ports: InventoryPorts): DomainModule<InventoryPort> {
  const { db } = ports;
  const access = createStoreAccess(db, ports.directory);
  const catalog = createCatalogService({ db, directory: ports.directory, users: ports.users, access });
  const moves = createMoveService({ ...ports, access });
  return {
    ports: {
      catalog,
      moves,
      ledgerOnHand: (tenantId, itemId, storeId) => ledgerOnHand(db, tenantId, itemId, storeId),
      balanceMismatches: (tenantId) => balanceMismatches(db, tenantId),
      reports: createInventoryReports({ db, directory: ports.directory, access, moves }),
      purchasing: createPurchasing({ db, access, moves }),
    },
    register(app) {
      inventoryRoutes(app, { catalog, moves });
    },
  };
}
