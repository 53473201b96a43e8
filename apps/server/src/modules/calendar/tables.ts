import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** An event or a recurring series, kept in its zone's wall-clock time (start_local/end_local) with its IANA zone. */
export interface CalendarEventsTable {
  id: Generated<number>;
  tenant_id: number;
  title: string;
  kind: string;
  all_day: Generated<boolean>;
  start_local: string;
  end_local: string;
  time_zone: string;
  recurrence: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  exceptions: ColumnType<string[], string[] | undefined, string[]>;
  /** An occurrence moved out of a series points at the series and its original wall-clock start. */
  series_id: number | null;
  original_start: string | null;
  site_id: number | null;
  device_id: number | null;
  cluster_id: number | null;
  notes: Generated<string>;
  color: string | null;
  assignee_ids: ColumnType<number[], number[] | undefined, number[]>;
  /** First occurrence's start and the last one's end in UTC (null: the series does not end), for range queries. */
  starts_at: Timestamp;
  ends_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_by: number | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A maintenance window in force: what it switched on, so that its end undoes exactly that. */
export interface CalendarWindowRunsTable {
  tenant_id: number;
  event_id: number;
  title: string;
  occurrence: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  site_id: number | null;
  device_ids: ColumnType<number[], number[] | undefined, number[]>;
  switched_on: ColumnType<number[], number[] | undefined, number[]>;
  sla_site_ids: ColumnType<number[], number[] | undefined, number[]>;
}

export interface CalendarTables {
  calendar_events: CalendarEventsTable;
  calendar_window_runs: CalendarWindowRunsTable;
}
