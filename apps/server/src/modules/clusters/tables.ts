import type { ColumnType, Generated } from 'kysely';

/** A named group of sites with its city lead, area head and regional head (SPEC 2.2 cluster-view). */
export interface ClustersTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  description: string | null;
  city_lead_id: number | null;
  area_head_id: number | null;
  regional_head_id: number | null;
  created_by: number | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A site of a cluster. */
export interface ClusterSitesTable {
  tenant_id: number;
  cluster_id: number;
  asset_id: number;
}

export interface ClusterTables {
  clusters: ClustersTable;
  cluster_sites: ClusterSitesTable;
}
