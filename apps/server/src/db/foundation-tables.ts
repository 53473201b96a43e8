import type { ColumnType, Generated, JSONColumnType } from 'kysely';

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface TenantsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  domains: ColumnType<string[], string[] | undefined, string[]>;
  logo: string | null;
  settings: JSONColumnType<Record<string, unknown>>;
  version_info: JSONColumnType<Record<string, string>>;
  /** The tenant's own v1/v2c trap community (random, made with the tenant; snmp module). */
  trap_community: Generated<string>;
  /** Addresses or CIDRs of trap relays whose snmpTrapAddress.0 the tenant trusts. */
  trap_relays: ColumnType<string[], string[] | undefined, string[]>;
  /** Devices on a simulated network (the demo): nothing is dialled at the addresses they declare. */
  simulated_network: Generated<boolean>;
  /** Networks (CIDRs, or `public`) its devices may be dialled in, set by the system administrator; null: the install's default. */
  outbound_networks: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  /** The tenant's own rate limits of device input (keys it set); null: the server's defaults. */
  device_rate_limits: ColumnType<Record<string, string | null> | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
}

export interface GroupsTable {
  id: Generated<number>;
  tenant_id: number;
  name: string;
  permissions: JSONColumnType<{ codename: string; name: string }[]>;
}

export interface UsersTable {
  id: Generated<number>;
  tenant_id: number;
  username: string;
  email: string;
  firstname: string;
  lastname: string;
  mobile: string | null;
  password_hash: string;
  roles: ColumnType<string[], string[], string[]>;
  group_ids: ColumnType<number[], number[] | undefined, number[]>;
  profile: JSONColumnType<Record<string, unknown>>;
  notification_config: JSONColumnType<{ popup: boolean }>;
  failed_logins: Generated<number>;
  locked_until: NullableTimestamp;
  totp_secret: string | null;
  totp_enabled: Generated<boolean>;
  is_active: Generated<boolean>;
  password_changed_at: Generated<Date>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SessionsTable {
  id: string;
  tenant_id: number;
  user_id: number;
  cookie_hash: string;
  login_role: string;
  login_method: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Generated<Date>;
  last_seen_at: Generated<Date>;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  /** Generation of the refresh token in force; an older one presented again is a reuse. */
  refresh_gen: Generated<number>;
}

export interface CaptchasTable {
  id: string;
  tenant_id: number;
  answer_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OtpCodesTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface AuditLogTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number | null;
  username: string | null;
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  ip: string | null;
  user_agent: string | null;
  detail: JSONColumnType<Record<string, unknown>>;
  created_at: Generated<Date>;
}

export interface SmsOutboxTable {
  id: Generated<number>;
  tenant_id: number;
  to: string;
  body: string;
  created_at: Generated<Date>;
}

/** The platform mail sender's outbox (platform/mail.ts); sysadmins read it in user administration. */
export interface MailOutboxTable {
  id: Generated<number>;
  tenant_id: number;
  to: string;
  subject: string;
  body: string;
  created_at: Generated<Date>;
}

export interface SystemAlertsTable {
  id: Generated<number>;
  tenant_id: number;
  message: string;
  created_by: number | null;
  active: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

export interface DemoSeedersTable {
  tenant_id: number;
  name: string;
  applied_at: Generated<Date>;
}

export interface FoundationTables {
  demo_seeders: DemoSeedersTable;
  tenants: TenantsTable;
  groups: GroupsTable;
  users: UsersTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  otp_codes: OtpCodesTable;
  audit_log: AuditLogTable;
  sms_outbox: SmsOutboxTable;
  mail_outbox: MailOutboxTable;
  system_alerts: SystemAlertsTable;
  app_secrets: AppSecretsTable;
}
