/**
 * `npm run backup -- [--out DIR] [--with-recordings]`, `npm run backup -- --verify DIR` and `npm run restore -- DIR`,
 * for the data folder and database the server's own settings name (DATA_DIR, DATABASE_URL).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { openPglite } from '../db.ts';
import { askRunningServer } from './control-socket.ts';
import { type BackupResult, createBackup } from './create-backup.ts';
import { BackupInvalidError, verifyBackup } from './manifest.ts';
import { RestoreRefusedError, restoreBackup } from './restore-backup.ts';

const size = (bytes: number) =>
  bytes >= 1 << 30
    ? `${(bytes / 2 ** 30).toFixed(2)} GiB`
    : bytes >= 1 << 20
      ? `${(bytes / 2 ** 20).toFixed(1)} MiB`
      : `${(bytes / 1024).toFixed(1)} KiB`;

async function backup(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { out: { type: 'string' }, verify: { type: 'string' }, 'with-recordings': { type: 'boolean' } },
  });
  const config = loadConfig();
  if (values.verify) {
    const manifest = await verifyBackup(resolve(values.verify));
    console.log(
      `Backup ${resolve(values.verify)} is intact: ${manifest.parts.length} parts, ${size(manifest.totalBytes)}, database as of ${manifest.createdAt}.`,
    );
    return;
  }
  const outRoot = resolve(values.out ?? config.backup.dir);
  const withRecordings = values['with-recordings'] === true;
  let result: Pick<BackupResult, 'path' | 'durationMs'> & { bytes: number };
  if (config.databaseUrl) {
    const made = await createBackup({
      source: { kind: 'pg', url: config.databaseUrl },
      dataDir: config.dataDir,
      outRoot,
      withRecordings,
      reason: 'manual',
    });
    result = { path: made.path, durationMs: made.durationMs, bytes: made.manifest.totalBytes };
  } else {
    const answer = await askRunningServer(config.dataDir, { op: 'backup', outRoot, withRecordings });
    if (answer && !answer.ok) throw new Error(answer.error);
    if (answer?.ok) result = answer.result;
    else {
      // No server runs on this data folder: the embedded database is opened here.
      if (!existsSync(join(config.dataDir, 'db', 'PG_VERSION')))
        throw new Error(`There is no database in ${config.dataDir} (set DATA_DIR).`);
      const handle = await openPglite(config.dataDir);
      try {
        const made = await createBackup({
          source: { kind: 'pglite', handle },
          dataDir: config.dataDir,
          outRoot,
          withRecordings,
          reason: 'manual',
        });
        result = { path: made.path, durationMs: made.durationMs, bytes: made.manifest.totalBytes };
      } finally {
        await handle.close();
      }
    }
  }
  console.log(`Backup written to ${result.path} (${size(result.bytes)} in ${(result.durationMs / 1000).toFixed(1)} s).`);
}

async function restore(args: string[]) {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const dir = positionals[0];
  if (!dir || positionals.length > 1) throw new RestoreRefusedError('Name one backup folder: npm run restore -- DIR');
  const config = loadConfig();
  const started = performance.now();
  const manifest = await restoreBackup({ backupDir: resolve(dir), dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${config.databaseUrl ? 'the PostgreSQL database and ' : ''}${config.dataDir} in ${((performance.now() - started) / 1000).toFixed(1)} s.` +
      `${manifest.withRecordings ? '' : ' It held no recordings: the footage index starts empty.'}\nStart the product with the same settings (npm start).`,
  );
}

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'backup') await backup(rest);
  else if (command === 'restore') await restore(rest);
  else throw new Error('usage: cli.ts backup [--out DIR] [--with-recordings] | backup --verify DIR | restore DIR');
} catch (error) {
  const known = error instanceof BackupInvalidError || error instanceof RestoreRefusedError;
  console.error(`\n  ${(error as Error).message.replace(/\n/g, '\n  ')}\n`);
  process.exit(known ? 2 : 1);
}
