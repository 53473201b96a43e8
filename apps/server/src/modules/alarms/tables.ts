import type { ColumnType, Generated } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;

export interface AlarmRulesTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  device_type: string | null;
  template_id: number | null;
  kind: string;
  key: string | null;
  operator: string | null;
  threshold: number | null;
  duration_seconds: number;
  severity: string;
  create_ticket: boolean;
  enabled: boolean;
  created_at: Created;
  updated_at: Created;
}

export interface AlarmsTable {
  id: Generated<number>;
  tenant_id: number;
  device_id: number;
  rule_id: number | null;
  rule_name: string;
  severity: string;
  state: ColumnType<string, string | undefined, string>;
  message: string;
  num: number | null;
  txt: string | null;
  suppressed_by: string | null;
  ticket_id: number | null;
  raised_at: Created;
  cleared_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** An alarm raised from outside the rules (an SNMP trap): its key, one active per device and key. */
  source_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the outside source sent (the raw trap). */
  raw: ColumnType<unknown, string | null | undefined, string | null>;
}

/** A threshold rule's condition that holds on a device, since when (the duration has not passed yet). */
export interface AlarmPendingTable {
  device_id: number;
  rule_id: number;
  tenant_id: number;
  since: ColumnType<Date, Date | string, Date | string>;
  value: ColumnType<unknown, string | null, string | null>;
}

export interface AlarmTables {
  alarm_rules: AlarmRulesTable;
  alarms: AlarmsTable;
  alarm_pending: AlarmPendingTable;
}
