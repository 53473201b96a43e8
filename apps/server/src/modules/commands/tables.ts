import type { ColumnType, Generated } from 'kysely';

type Stamp = ColumnType<Date, Date | string, Date | string>;
type MaybeStamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface DeviceCommandBulksTable {
  id: Generated<number>;
  tenant_id: number;
  method: string;
  params: ColumnType<unknown, string | null, string | null>;
  oneway: boolean;
  timeout_ms: number;
  target: ColumnType<unknown, string, string>;
  total: number;
  created_by: number | null;
  created_at: Stamp;
  expires_at: Stamp;
}

export interface DeviceCommandsTable {
  id: Generated<number>;
  tenant_id: number;
  device_id: number;
  device_label: string;
  asset_id: number | null;
  bulk_id: number | null;
  method: string;
  params: ColumnType<unknown, string | null, string | null>;
  oneway: boolean;
  timeout_ms: number;
  state: ColumnType<string, string | undefined, string>;
  response: ColumnType<unknown, string | null | undefined, string | null>;
  error: ColumnType<string | null, string | null | undefined, string | null>;
  /** How it reached the device: mqtt or http. */
  transport: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: number | null;
  created_at: Stamp;
  expires_at: Stamp;
  sent_at: MaybeStamp;
  delivered_at: MaybeStamp;
  completed_at: MaybeStamp;
  /** When a sent command times out without its reply (or acknowledgement, one-way). */
  timeout_at: MaybeStamp;
}

/** Every state (or transport) change of a command, written by a trigger on device_commands. */
export interface DeviceCommandHistoryTable {
  id: Generated<string>;
  tenant_id: number;
  command_id: number;
  state: string;
  transport: string | null;
  at: Stamp;
}

export interface CommandTables {
  device_command_bulks: DeviceCommandBulksTable;
  device_commands: DeviceCommandsTable;
  device_command_history: DeviceCommandHistoryTable;
}
