import type { ColumnType, Generated, JSONColumnType } from 'kysely';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface JobsTable {
  id: Generated<number>;
  tenant_id: number | null;
  queue: string;
  payload: JSONColumnType<Record<string, unknown>>;
  status: Generated<JobStatus>;
  run_at: ColumnType<Date, Date | string | undefined, Date | string>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_by: string | null;
  locked_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  progress: Generated<number>;
  result: JSONColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface JobTables {
  jobs: JobsTable;
}
