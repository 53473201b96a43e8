import type { ColumnType } from 'kysely';

type Time = ColumnType<Date, Date | string, Date | string>;
type JsonValue = string | number | boolean | null;

export interface TelemetryTable {
  tenant_id: number;
  device_id: number;
  key: string;
  ts: Time;
  num: number | null;
  txt: string | null;
}

export interface TelemetryLatestTable {
  tenant_id: number;
  device_id: number;
  key: string;
  ts: Time;
  value: ColumnType<JsonValue, string, string>;
}

export interface DeviceAttributesTable {
  tenant_id: number;
  device_id: number;
  key: string;
  value: ColumnType<JsonValue, string, string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface TelemetryTables {
  telemetry: TelemetryTable;
  telemetry_latest: TelemetryLatestTable;
  device_attributes: DeviceAttributesTable;
}
