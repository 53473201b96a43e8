import type { DbHandle } from '../db.ts';
import { type BackupResult, type BackupSource, createBackup } from './create-backup.ts';
import type { BackupReason } from './manifest.ts';

export interface BackupRequest {
  outRoot: string;
  withRecordings: boolean;
  reason: BackupReason;
}

/** Makes backups of this process's database and data folder, one at a time. */
export function createBackupRunner(database: DbHandle, dataDir: string) {
  const source: BackupSource = database.kind === 'pglite' ? { kind: 'pglite', handle: database } : { kind: 'pg', url: database.url ?? '' };
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(request: BackupRequest): Promise<BackupResult> {
      const next = tail.then(() => createBackup({ source, dataDir, ...request }));
      tail = next.catch(() => undefined);
      return next;
    },
  };
}

export type BackupRunner = ReturnType<typeof createBackupRunner>;
