import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type JsonValue = string | number | boolean | null;

export interface DevicesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  label: string;
  type: string;
  status: ColumnType<string, string | undefined, string>;
  /** The worst severity of the device's active alarms, NORMAL when none (set only with the alarm that changes it). */
  alarm_status: ColumnType<string, string | undefined, string>;
  alarm_updated_at: NullableTime;
  last_activity_at: NullableTime;
  asset_id: number | null;
  parent_id: number | null;
  is_parent: ColumnType<boolean, boolean | undefined, boolean>;
  template_id: number | null;
  access_token: string;
  discovered: ColumnType<boolean, boolean | undefined, boolean>;
  metadata: JSONColumnType<Record<string, JsonValue>>;
  state: JSONColumnType<Record<string, JsonValue>, string | undefined, string>;
  state_updated_at: NullableTime;
  created_at: Created;
  updated_at: Created;
}

export interface DeviceTemplatesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  type: string;
  vendor: string;
  model: string | null;
  description: string | null;
  telemetry: JSONColumnType<{ key: string; label: string; unit?: string; valueType: 'number' | 'boolean' | 'string' }[]>;
  attributes: JSONColumnType<Record<string, JsonValue>>;
  created_at: Created;
  updated_at: Created;
}

export interface EntityMappingsTable {
  id: Generated<number>;
  tenant_id: number;
  relation_type: string;
  from_type: string;
  from_id: number;
  to_type: string;
  to_id: number;
  created_by: number | null;
  created_at: Created;
}

export interface DeviceAlarmActionsTable {
  id: Generated<number>;
  tenant_id: number;
  device_id: number;
  telemetry_key: string;
  telemetry_value: boolean;
  update_child_device: boolean;
  updated_devices: number;
  create_ticket: boolean;
  description: string;
  user_id: number | null;
  created_at: Created;
}

export interface DeviceTables {
  devices: DevicesTable;
  device_templates: DeviceTemplatesTable;
  entity_mappings: EntityMappingsTable;
  device_alarm_actions: DeviceAlarmActionsTable;
}
