import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface VendorsTable {
  id: Generated<number>;
  tenant_id: number;
  company: string;
  contact_person: Generated<string>;
  email: Generated<string>;
  phone: Generated<string>;
  address: Generated<string>;
  notes: Generated<string>;
  active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface VendorSitesTable {
  tenant_id: number;
  vendor_id: number;
  asset_id: number;
}

export interface VendorIssueTypesTable {
  tenant_id: number;
  vendor_id: number;
  issue_type_id: number;
}

export interface VendorUsersTable {
  tenant_id: number;
  vendor_id: number;
  user_id: number;
}

export interface VendorTables {
  vendors: VendorsTable;
  vendor_sites: VendorSitesTable;
  vendor_issue_types: VendorIssueTypesTable;
  vendor_users: VendorUsersTable;
}
