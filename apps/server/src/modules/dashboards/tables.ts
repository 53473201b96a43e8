import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T extends object | null> = JSONColumnType<T, string, string>;

export interface DashboardFoldersTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  parent_id: number | null;
  idx: ColumnType<number, number | undefined, number>;
  config: Json<{ titleAsBreadCrumb?: boolean }>;
  created_by: number | null;
  created_at: Created;
  updated_at: Created;
}

export interface DashboardsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  folder_id: number | null;
  idx: ColumnType<number, number | undefined, number>;
  type: string;
  config: Json<object>;
  layouts: Json<object>;
  widgets: Json<unknown[]>;
  version: ColumnType<number, number | undefined, number>;
  created_by: number | null;
  created_at: Created;
  updated_at: Created;
}

export interface DashboardComponentsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  widget: Json<object>;
  size: Json<{ w: number; h: number }>;
  created_by: number | null;
  created_at: Created;
  updated_at: Created;
}

export interface DashboardVersionsTable {
  id: Generated<number>;
  tenant_id: number;
  dashboard_id: number;
  version: number;
  name: string;
  note: string;
  config: Json<object>;
  layouts: Json<object>;
  widgets: Json<unknown[]>;
  restored_from: number | null;
  created_by: number | null;
  created_at: Created;
}

export interface AnalyticsLinksTable {
  id: string;
  tenant_id: number;
  dashboard_id: number;
  label: string;
  rls_conditions: Json<unknown[]>;
  expires_at: Created;
  kid: string;
  view_count: ColumnType<number, number | undefined, number>;
  last_viewed_at: NullableTime;
  revoked_at: NullableTime;
  revoked_by: number | null;
  created_by: number;
  created_at: Created;
}

export interface DashboardTables {
  dashboard_folders: DashboardFoldersTable;
  dashboards: DashboardsTable;
  dashboard_components: DashboardComponentsTable;
  dashboard_versions: DashboardVersionsTable;
  analytics_links: AnalyticsLinksTable;
}
