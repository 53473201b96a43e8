import type { Db } from '../../platform/db.ts';
import * as repo from './repository.ts';
import { seesAllSites } from './scope.ts';

/** A device as other domains see it (labels for tickets, the site it belongs to). */
export interface DirectoryDevice {
  id: number;
  name: string;
  label: string;
  type: string;
  assetId: number | null;
  parentId: number | null;
  parentLabel: string | null;
  /** The name of the site it is at, to name it with its site (`nameWithSite`). */
  siteName: string | null;
}

/**
 * What other domains may ask of the sites-and-devices domain without reaching its tables. Address levels run from
 * the broadest (country) to the narrowest; the narrowest is the site's city.
 */
export interface SiteDirectory {
  asset(
    tenantId: number,
    assetId: number,
  ): Promise<{
    id: number;
    name: string;
    city: string | null;
    address: string[];
    latitude: number | null;
    longitude: number | null;
  } | null>;
  device(tenantId: number, deviceId: number): Promise<DirectoryDevice | null>;
  /** Asset ids the user may see, or 'all' for roles that see every site. */
  visibleAssetIds(tenantId: number, userId: number, roles: string[]): Promise<number[] | 'all'>;
  /** Users assigned to the asset (for alarm and ticket notifications). */
  usersForAsset(tenantId: number, assetId: number): Promise<number[]>;
}

/** The directory over the sites tables; devices are looked up through the devices module's records. */
export function createSiteDirectory(
  db: Db,
  devices: { device(tenantId: number, deviceId: number): Promise<DirectoryDevice | null> },
): SiteDirectory {
  return {
    async asset(tenantId, assetId) {
      const row = await repo.assetById(db, tenantId, assetId);
      if (!row) return null;
      return {
        id: row.id,
        name: row.name,
        city: row.address.at(-1) ?? null,
        address: row.address,
        latitude: row.latitude,
        longitude: row.longitude,
      };
    },
    device: (tenantId, deviceId) => devices.device(tenantId, deviceId),
    async visibleAssetIds(tenantId, userId, roles) {
      if (seesAllSites(roles)) return 'all';
      return repo.assetIdsForUser(db, tenantId, userId);
    },
    usersForAsset: (tenantId, assetId) => repo.userIdsForAsset(db, tenantId, assetId),
  };
}
