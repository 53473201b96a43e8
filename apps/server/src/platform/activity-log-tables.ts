import type { ColumnType, Generated, JSONColumnType } from 'kysely';

/** One row of the user activity log (append-only; partitioned by month). */
export interface UserActivityLogsTable {
  id: Generated<string>;
  tenant_id: number;
  created_at: ColumnType<Date, Date | string | undefined, never>;
  actor_id: number | null;
  actor_name: string | null;
  action: string;
  outcome: string;
  object_type: string | null;
  object_id: string | null;
  ip: string | null;
  user_agent: string | null;
  /** When it was done at the site, if it was sent later (X-Action-Time). */
  performed_at: ColumnType<Date | null, Date | null | undefined, never>;
  before: JSONColumnType<Record<string, unknown> | null, string | null, never>;
  after: JSONColumnType<Record<string, unknown> | null, string | null, never>;
  detail: JSONColumnType<Record<string, unknown>, string, never>;
}

export interface ActivityLogTables {
  user_activity_logs: UserActivityLogsTable;
}
