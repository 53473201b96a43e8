import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CustomersTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  city: string | null;
  country: string | null;
  provision_key: string;
  provision_secret: string;
  secret_rotated_at: Created;
  created_at: Created;
  updated_at: Created;
}

export interface AssetsTable {
  id: Generated<number>;
  tenant_id: number;
  customer_id: number | null;
  name: string;
  address: ColumnType<string[], string[] | undefined, string[]>;
  latitude: number | null;
  longitude: number | null;
  metadata: JSONColumnType<Record<string, string | number | boolean | null>>;
  created_at: Created;
  updated_at: Created;
}

export interface UserAssetsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  asset_id: number;
  created_by: number | null;
  created_at: Created;
}

export interface SiteTables {
  customers: CustomersTable;
  assets: AssetsTable;
  user_assets: UserAssetsTable;
}
