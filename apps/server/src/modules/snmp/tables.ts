import type { ColumnType, Generated } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;
type Counter = ColumnType<string | number, number | undefined, number>;

export interface TrapDestinationsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  host: string;
  port: Defaulted<number>;
  version: string;
  mode: Defaulted<string>;
  /** Sealed with the install's trap key (secrets.ts); never sent out. */
  community: Defaulted<string | null>;
  user_name: Defaulted<string>;
  security_level: Defaulted<string>;
  auth_protocol: Defaulted<string>;
  auth_key: Defaulted<string | null>;
  priv_protocol: Defaulted<string>;
  priv_key: Defaulted<string | null>;
  enabled: Defaulted<boolean>;
  sent: Counter;
  failed: Counter;
  dropped: Counter;
  created_at: Created;
  updated_at: Created;
}

export interface TrapFiltersTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  oid_prefix: Defaulted<string>;
  varbind_oid: Defaulted<string | null>;
  varbind_value: Defaulted<string | null>;
  device_id: Defaulted<number | null>;
  asset_id: Defaulted<number | null>;
  min_severity: Defaulted<string | null>;
  destination_ids: Defaulted<number[]>;
  enabled: Defaulted<boolean>;
  matched: Counter;
  created_at: Created;
  updated_at: Created;
}

export interface TrapMappingsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  trap_oid: string;
  action: string;
  alarm_key: string;
  instance_oid: Defaulted<string | null>;
  severity: Defaulted<string>;
  create_ticket: Defaulted<boolean>;
  device_type: Defaulted<string | null>;
  enabled: Defaulted<boolean>;
  created_at: Created;
}

export interface TrapUnmatchedTable {
  id: Generated<string>;
  tenant_id: number | null;
  source: string;
  version: string;
  trap_oid: string;
  reason: string;
  device_id: number | null;
  count: Counter;
  first_seen: Created;
  last_seen: Created;
  varbinds: ColumnType<unknown, string, string>;
}

/** SNMPv3 users a tenant's devices send traps as (names unique in the install; keys sealed). */
export interface TrapUsersTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  security_level: string;
  auth_protocol: Defaulted<string>;
  auth_key: Defaulted<string | null>;
  priv_protocol: Defaulted<string>;
  priv_key: Defaulted<string | null>;
  created_at: Created;
}

export interface TrapStatsTable {
  /** 0: traps from no known device. */
  tenant_id: number;
  received: Counter;
  matched: Counter;
  unmatched: Counter;
  deduped: Counter;
  rate_limited: Counter;
  alarms: Counter;
  forwarded: Counter;
  /** Traps with an unknown community or v3 user (row 0 only). */
  refused: Counter;
}

export interface TrapForwardFailuresTable {
  id: Generated<string>;
  tenant_id: number;
  destination_id: number;
  at: Created;
  trap_oid: string;
  error: string;
}

export interface SnmpTables {
  trap_destinations: TrapDestinationsTable;
  trap_filters: TrapFiltersTable;
  trap_mappings: TrapMappingsTable;
  trap_unmatched: TrapUnmatchedTable;
  trap_stats: TrapStatsTable;
  trap_users: TrapUsersTable;
  trap_forward_failures: TrapForwardFailuresTable;
}
