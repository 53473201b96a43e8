import type { ColumnType, Generated } from 'kysely';

export interface BackupRunsTable {
  id: Generated<number>;
  reason: 'manual' | 'scheduled' | 'before-migrate';
  status: ColumnType<'running' | 'succeeded' | 'failed', 'running' | 'succeeded' | 'failed' | undefined>;
  started_at: ColumnType<Date, Date | string | undefined, Date | string>;
  finished_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The backup's folder in the backup folder. */
  name: string | null;
  bytes: number | null;
  duration_ms: number | null;
  /** Read back and every part's checksum matched after it was written. */
  verified: ColumnType<boolean, boolean | undefined, boolean>;
  with_recordings: ColumnType<boolean, boolean | undefined, boolean>;
  error: string | null;
  started_by: number | null;
  /** Removed by the keep-last-N rule. */
  removed: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface BackupTables {
  backup_runs: BackupRunsTable;
}
