import type { CustomerSettings } from '@sitewatch/contracts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { DomainModule } from '../../platform/module.ts';
import type { ExportRegistry } from '../downloads/index.ts';
import type { SystemTickets } from '../helpdesk/ports.ts';
import type { DirectoryDevice } from '../sites/directory.ts';
import type { SiteService } from '../sites/service.ts';
import type { UserDirectory } from '../users/directory.ts';
import { createDeviceActivityRepository, type DeviceActivityRepository } from './activity-repository.ts';
import { createCatalogService } from './catalog-service.ts';
import { deviceExports } from './exports.ts';
import { createDeviceMaintenance, type DeviceMaintenance } from './maintenance.ts';
import { camerasMappedTo, deleteMappingsOf, deviceById, renameSiteRoot, replaceHardware, templateExists } from './repository.ts';
import { deviceRoutes } from './routes.ts';
import { createDeviceService, type DeviceService } from './service.ts';

export type {
  ActivityRow,
  ActivityUpdate,
  DeviceActivityRepository,
  DeviceFlags,
  IngestDevice,
  StatusChange,
} from './activity-repository.ts';
export type { DeviceMaintenance } from './maintenance.ts';

/**
 * The devices tables as other domains may use them, built before any module because the site directory, telemetry
 * and alarms need them: device lookups by id, the activity/status/alarm-status records ingest keeps current, and
 * what a site's change does to its devices (in the site's transaction `db`).
 */
export interface DeviceRecords {
  device(tenantId: number, deviceId: number): Promise<DirectoryDevice | null>;
  activity: DeviceActivityRepository;
  templateExists(tenantId: number, templateId: number): Promise<boolean>;
  /** Device names start with their site's root (its code, else its name): a new root renames them. */
  renameSiteRoot(db: Db, tenantId: number, assetId: number, oldRoot: string, newRoot: string): Promise<void>;
  removeMappingsOf(db: Db, tenantId: number, type: 'ASSET' | 'DEVICE', id: number): Promise<void>;
  /** The cameras mapped (CAMERA MAPPING) to the device or to its site: an alarm's video evidence. */
  camerasMappedTo(tenantId: number, deviceId: number, assetId: number | null): Promise<number[]>;
  /** A replaced unit's serial number, vendor and model go into the device's metadata, in the caller's transaction `db`; the old values, or null when no such device. */
  replaceHardware(
    db: Db,
    tenantId: number,
    deviceId: number,
    hardware: { serialNumber: string; vendor: string; model: string },
  ): Promise<{ serialNumber: string; vendor: string; model: string } | null>;
}

export function createDeviceRecords(db: Db): DeviceRecords {
  return {
    async device(tenantId, deviceId) {
      const row = await deviceById(db, tenantId, deviceId);
      if (!row) return null;
      return {
        id: row.id,
        name: row.name,
        label: row.label,
        type: row.type,
        assetId: row.asset_id,
        parentId: row.parent_id,
        parentLabel: row.parent_label,
        siteName: row.site_name,
      };
    },
    activity: createDeviceActivityRepository(db),
    templateExists: (tenantId, templateId) => templateExists(db, tenantId, templateId),
    async renameSiteRoot(trx, tenantId, assetId, oldRoot, newRoot) {
      await renameSiteRoot(trx, tenantId, assetId, oldRoot, newRoot);
    },
    async removeMappingsOf(trx, tenantId, type, id) {
      await deleteMappingsOf(trx, tenantId, type, id);
    },
    replaceHardware: (trx, tenantId, deviceId, hardware) => replaceHardware(trx, tenantId, deviceId, hardware),
    camerasMappedTo: (tenantId, deviceId, assetId) => camerasMappedTo(db, tenantId, deviceId, assetId),
  };
}

export interface DevicesPorts {
  db: Db;
  events: EventBus;
  settings(tenantId: number): Promise<CustomerSettings>;
  /** Alarm actions that ask for a ticket raise it through the helpdesk (SPEC 2.14). */
  tickets: SystemTickets;
  sites: SiteService;
  /** The site customer whose device-provisioning key this is (the sites module owns customers). */
  provisionCustomer(key: string): Promise<{ id: number; tenant_id: number; provision_secret: string } | undefined>;
  exports: ExportRegistry;
  /** Names in the alarm-action log (the users module owns users). */
  users: UserDirectory;
}

export interface DevicesPort {
  /** Maintenance mode switched by the system (calendar maintenance windows). */
  maintenance: DeviceMaintenance;
  /** ThingsBoard's device provisioning (also reached over MQTT through the device-api module). */
  provision: DeviceService['provision'];
}

/** Devices: the list and tree, templates, mappings, provisioning, alarm actions. */
export function createDevicesModule(ports: DevicesPorts): DomainModule<DevicesPort> {
  const { db } = ports;
  const devices = createDeviceService({
    db,
    events: ports.events,
    settings: ports.settings,
    tickets: ports.tickets,
    provisionCustomer: ports.provisionCustomer,
    users: ports.users,
    sites: ports.sites,
  });
  const catalog = createCatalogService(db, ports.sites);
  for (const source of deviceExports(devices)) ports.exports.registerSource(source);
  return {
    ports: { maintenance: createDeviceMaintenance(db, ports.events), provision: devices.provision },
    register(app) {
      deviceRoutes(app, { db, devices, catalog, sites: ports.sites, provisionRateLimit: 30 });
    },
  };
}
