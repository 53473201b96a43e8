import type { ColumnType, Generated } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;
/** `date` columns: written as YYYY-MM-DD, read back through to_char (never as a Date in a time zone). */
type Day = ColumnType<string | null, string | null | undefined, string | null>;

export interface EquipmentTable {
  id: Generated<number>;
  tenant_id: number;
  asset_id: number;
  name: string;
  category: string;
  make: ColumnType<string, string | undefined, string>;
  model: ColumnType<string, string | undefined, string>;
  serial: string;
  install_date: Day;
  warranty_until: Day;
  device_id: number | null;
  notes: ColumnType<string, string | undefined, string>;
  status: ColumnType<string, string | undefined, string>;
  created_by: number | null;
  created_at: Created;
  updated_at: Created;
}

export interface EquipmentTables {
  equipment: EquipmentTable;
}
