import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;
type Stamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A report a user asked to receive regularly; any registered report kind (see registry.ts). */
export interface ReportSchedulesTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  kind: string;
  name: string;
  frequency: 'DAILY' | 'WEEKLY' | 'MONTHLY';
  /** HH:MM, UTC. */
  time_of_day: string;
  day_of_week: number | null;
  day_of_month: number | null;
  format: 'csv' | 'xlsx' | 'pdf';
  params: JSONColumnType<Record<string, unknown>>;
  next_run_at: ColumnType<Date, Date | string, Date | string>;
  last_run_at: Stamp;
  last_job_id: number | null;
  created_at: Created;
}

export interface ReportTables {
  report_schedules: ReportSchedulesTable;
}
