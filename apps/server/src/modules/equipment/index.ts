import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { equipmentRoutes } from './routes.ts';
import { createEquipmentService, type EquipmentService, type EquipmentTickets } from './service.ts';

export type { EquipmentTickets } from './service.ts';

export interface EquipmentPorts {
  db: Db;
  events: EventBus;
  clock: Clock;
  /** Sites and devices: who sees which site, and where a linked device stands. */
  directory: SiteDirectory;
  /** The helpdesk's ticket list, read as the caller (maintenance history). */
  tickets: EquipmentTickets;
}

export interface EquipmentPort {
  service: EquipmentService;
}

/** Equipment at sites (issue 16): make, model, serial, warranty, linked device, maintenance history from tickets. */
export function createEquipmentModule(ports: EquipmentPorts): DomainModule<EquipmentPort> {
  const equipment = createEquipmentService(ports);
  return {
    ports: { service: equipment },
    register(app) {
      equipmentRoutes(app, { equipment });
    },
  };
}
