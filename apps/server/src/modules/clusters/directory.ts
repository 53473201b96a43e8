import type { Db } from '../../platform/db.ts';
import * as repo from './repository.ts';

/** What other domains (the calendar's per-cluster filter) may ask about clusters; the clusters module owns their tables. */
export interface ClusterDirectory {
  /** The site ids of the tenant's cluster (none for an unknown cluster or one of another tenant). */
  siteIdsOf(tenantId: number, clusterId: number): Promise<number[]>;
  /** The tenant's clusters by name, with their site ids. */
  list(tenantId: number): Promise<{ id: number; name: string; siteIds: number[] }[]>;
}

export function createClusterDirectory(db: Db): ClusterDirectory {
  return {
    siteIdsOf: (tenantId, clusterId) => repo.siteIdsOf(db, tenantId, clusterId),
    async list(tenantId) {
      const rows = await repo.allClusters(db, tenantId);
      const sites = await repo.siteIdsByCluster(
        db,
        tenantId,
        rows.map((r) => r.id),
      );
      return rows.map((r) => ({ id: r.id, name: r.name, siteIds: sites.get(r.id) ?? [] }));
    },
  };
}
