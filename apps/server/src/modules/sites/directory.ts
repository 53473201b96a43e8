import type { SiteDirectory } from '../../app.ts';
import type { Db } from '../../platform/db.ts';
import { deviceById } from '../devices/repository.ts';
import * as repo from './repository.ts';
import { seesAllSites } from './scope.ts';

/**
 * What other domains may ask of sites and devices. Address levels run from the broadest (country) to the
 * narrowest; the narrowest is the site's city.
 */
export function createSiteDirectory(db: Db): SiteDirectory {
  return {
    async asset(tenantId, assetId) {
      const row = await repo.assetById(db, tenantId, assetId);
      if (!row) return null;
      return { id: row.id, name: row.name, city: row.address.at(-1) ?? null, address: row.address };
    },
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
      };
    },
    async visibleAssetIds(tenantId, userId, roles) {
      if (seesAllSites(roles)) return 'all';
      return repo.assetIdsForUser(db, tenantId, userId);
    },
    usersForAsset: (tenantId, assetId) => repo.userIdsForAsset(db, tenantId, assetId),
  };
}
