import type { MigrationProvider } from 'kysely/migration';
import type { DbHandle } from '../db.ts';
import { DatabaseTooNewError, holdsData, migrationState } from '../migrate.ts';
import { createBackup } from './create-backup.ts';

/**
 * Before an upgrade changes a database that holds data, a backup of it (BACKUP_BEFORE_MIGRATE, on by default) into
 * the backup folder; returns its path, or null when none was needed. A database of a newer build is refused first.
 */
export async function backupBeforeMigrating(
  database: DbHandle,
  settings: { dataDir: string; backupDir: string; enabled: boolean },
  provider?: MigrationProvider,
): Promise<string | null> {
  const state = await migrationState(database.db, provider);
  if (state.unknown.length > 0) throw new DatabaseTooNewError(state.unknown);
  if (!settings.enabled || state.pending.length === 0 || state.applied.length === 0 || !(await holdsData(database.db))) return null;
  const source =
    database.kind === 'pglite' ? ({ kind: 'pglite', handle: database } as const) : ({ kind: 'pg', url: database.url ?? '' } as const);
  const made = await createBackup({
    source,
    dataDir: settings.dataDir,
    outRoot: settings.backupDir,
    withRecordings: false,
    reason: 'before-migrate',
  });
  return made.path;
}
