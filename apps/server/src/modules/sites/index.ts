import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db.ts';
import type { DomainModule } from '../../platform/module.ts';
import type { ExportRegistry } from '../downloads/index.ts';
import type { UserDirectory } from '../users/directory.ts';
import { createSiteCustomerService, type SiteCustomerService } from './customers-service.ts';
import { createSiteDirectory, type DirectoryDevice, type SiteDirectory } from './directory.ts';
import { siteExports } from './exports.ts';
import { siteRoutes } from './routes.ts';
import { createSiteService, type SiteDevices, type SiteService } from './service.ts';

export { createSiteAssignments, type SiteAssignment, type SiteAssignments } from './assignments.ts';
export type { DirectoryDevice, SiteDirectory } from './directory.ts';

export interface SitesPorts {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'port' | 'mqtt' | 'auth'>;
  /** Device lookups for the directory, and what a site's change does to its devices (the devices module's records). */
  devices: SiteDevices & { device(tenantId: number, deviceId: number): Promise<DirectoryDevice | null> };
  exports: ExportRegistry;
  /** Names and roles of the users assigned to a site (the users module owns users). */
  users: UserDirectory;
}

export interface SitesPort {
  /** Who sees which site, and the labels of sites and devices: what every other domain asks of sites. */
  directory: SiteDirectory;
  sites: SiteService;
  siteCustomers: SiteCustomerService;
}

/** Sites and their customers: assets, the site tree and summaries, site customers, users' site assignments. */
export function createSitesModule(ports: SitesPorts): DomainModule<SitesPort> {
  const { db, config } = ports;
  const sites = createSiteService(db, ports.users, ports.devices);
  const siteCustomers = createSiteCustomerService(db, config);
  for (const source of siteExports(sites)) ports.exports.registerSource(source);
  return {
    ports: { directory: createSiteDirectory(db, ports.devices), sites, siteCustomers },
    register(app) {
      siteRoutes(app, { sites, siteCustomers, secureCookies: config.auth.secureCookies });
    },
  };
}
