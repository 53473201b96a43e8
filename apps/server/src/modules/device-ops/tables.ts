import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date, Date | string, Date | string>;

export interface AccessEventsTable {
  id: Generated<string>;
  tenant_id: number;
  device_id: number;
  asset_id: number | null;
  door: number;
  kind: string;
  credential: ColumnType<string, string | undefined, string>;
  at: Stamp;
}

export interface DiagnosticRunsTable {
  id: Generated<number>;
  tenant_id: number;
  device_id: number;
  asset_id: number | null;
  tool: string;
  target: string;
  status: ColumnType<string, string | undefined, string>;
  output: ColumnType<string, string | undefined, string>;
  started_by: number | null;
  started_at: Stamp;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  ticket_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface DeviceOpsTables {
  access_events: AccessEventsTable;
  diagnostic_runs: DiagnosticRunsTable;
}
