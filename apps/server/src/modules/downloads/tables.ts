import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type Stamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** A background export of one user, shown on /downloads (SPEC 3: Batch download job). */
export interface DownloadJobsTable {
  id: Generated<number>;
  tenant_id: number;
  user_id: number;
  /** The export source (`users`, `tickets`, ...). */
  kind: string;
  name: string;
  params: JSONColumnType<Record<string, unknown>>;
  /** Roles and permissions of the user when they asked: the export runs with exactly those. */
  scope: JSONColumnType<{ roles: string[]; permissions: string[] }>;
  queue_job_id: number | null;
  /** csv, xlsx or pdf. */
  format: Generated<'csv' | 'xlsx' | 'pdf'>;
  /** Tell the owner's inbox when the file is ready (scheduled reports). */
  notify: Generated<boolean>;
  /** starting until the worker takes it; failed when it gave up; otherwise follows its tasks. */
  status: Generated<string>;
  error: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  finished_at: Stamp;
  expires_at: Stamp;
}

/** One file of a job (SPEC 3: Task). */
export interface DownloadTasksTable {
  id: Generated<number>;
  tid: Generated<string>;
  tenant_id: number;
  job_id: number;
  name: string;
  camera_label: string | null;
  description: Generated<string>;
  status: Generated<string>;
  progress: Generated<number>;
  rows: Generated<number>;
  blob_key: string | null;
  content_type: string | null;
  size: number | null;
  is_read: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface DownloadTables {
  download_jobs: DownloadJobsTable;
  download_tasks: DownloadTasksTable;
}
