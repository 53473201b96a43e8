import type { ColumnType } from 'kysely';

type JsonValue = string | number | boolean | null;

export interface DeviceSharedAttributesTable {
  tenant_id: number;
  device_id: number;
  key: string;
  value: ColumnType<JsonValue, string, string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface DeviceApiTables {
  device_shared_attributes: DeviceSharedAttributesTable;
}
