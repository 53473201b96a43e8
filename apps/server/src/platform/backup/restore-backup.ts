import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { FILE_TREES, RECORDINGS_TREE } from './data-files.ts';
import { loadPgliteDump, pgExec, pgObjectCount, pgRestore } from './database-dump.ts';
import { type BackupManifest, eachLimit, verifyBackup } from './manifest.ts';

export interface RestoreOptions {
  backupDir: string;
  dataDir: string;
  /** PostgreSQL target; the embedded database in `dataDir` when absent. */
  databaseUrl?: string;
}

export class RestoreRefusedError extends Error {}

/** Without its recordings, a backup's index of footage names nothing: it is emptied so that no row names a missing file. */
const FORGET_RECORDINGS = 'delete from video_segments';

const KIND_NAMES = { pglite: 'the embedded database (PGlite)', pg: 'PostgreSQL' } as const;

/** What a data folder holds besides backups (a backup may be kept in the data folder it is restored into). */
async function dataFolderContents(dataDir: string, backupDir: string): Promise<string[]> {
  const entries = await readdir(dataDir).catch(() => []);
  const inside = relative(resolve(dataDir), resolve(backupDir)).split(sep)[0];
  return entries.filter((e) => e !== 'backups' && e !== inside && !e.startsWith('.'));
}

async function refuseNonEmptyTarget(opts: RestoreOptions, manifest: BackupManifest) {
  const targetKind = opts.databaseUrl ? 'pg' : 'pglite';
  if (manifest.database.kind !== targetKind) {
    throw new RestoreRefusedError(
      `This backup holds ${KIND_NAMES[manifest.database.kind]}, but the target is ${KIND_NAMES[targetKind]}: restore it into the same kind (${
        manifest.database.kind === 'pg' ? 'set DATABASE_URL' : 'unset DATABASE_URL'
      }).`,
    );
  }
  const contents = await dataFolderContents(opts.dataDir, opts.backupDir);
  const held = opts.databaseUrl ? contents.filter((e) => [...FILE_TREES, RECORDINGS_TREE].includes(e as never)) : contents;
  if (held.length > 0) {
    throw new RestoreRefusedError(
      `The data folder ${opts.dataDir} is not empty (it holds ${held.slice(0, 5).join(', ')}): restore only into an empty data folder, so that nothing is overwritten.`,
    );
  }
  if (opts.databaseUrl && (await pgObjectCount(opts.databaseUrl)) > 0) {
    throw new RestoreRefusedError(
      'The PostgreSQL database is not empty (it has tables): restore only into a new, empty database (createdb), so that nothing is overwritten.',
    );
  }
}

/**
 * Restores a backup into an empty data folder (and an empty PostgreSQL database when `databaseUrl` is set). The whole
 * backup is verified and the target checked before anything is written; a restore that fails part-way removes what it
 * wrote, leaving the target empty again.
 */
export async function restoreBackup(opts: RestoreOptions): Promise<BackupManifest> {
  const manifest = await verifyBackup(opts.backupDir);
  await refuseNonEmptyTarget(opts, manifest);
  const written: string[] = [];
  try {
    const databaseFile = join(opts.backupDir, manifest.database.part);
    if (opts.databaseUrl) {
      written.push('database');
      await pgRestore(opts.databaseUrl, databaseFile);
      if (!manifest.withRecordings) await pgExec(opts.databaseUrl, FORGET_RECORDINGS);
    } else {
      await mkdir(opts.dataDir, { recursive: true });
      written.push(join(opts.dataDir, 'db'));
      await loadPgliteDump(databaseFile, join(opts.dataDir, 'db'), async (db) => {
        if (!manifest.withRecordings) await db.exec(FORGET_RECORDINGS);
      });
    }
    const files = manifest.parts.filter((p) => p.path.startsWith('files/'));
    for (const tree of new Set(files.map((p) => p.path.split('/')[1] as string))) written.push(join(opts.dataDir, tree));
    await eachLimit(files, 4, async (part) => {
      const to = join(opts.dataDir, ...part.path.split('/').slice(1));
      await mkdir(dirname(to), { recursive: true });
      await copyFile(join(opts.backupDir, ...part.path.split('/')), to);
    });
    return manifest;
  } catch (error) {
    for (const path of written) {
      if (path === 'database' && opts.databaseUrl)
        await pgExec(opts.databaseUrl, 'drop schema public cascade; create schema public').catch(() => undefined);
      else await rm(path, { recursive: true, force: true });
    }
    throw error;
  }
}
