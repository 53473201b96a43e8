import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import type { DbHandle } from '../db.ts';
import { holdFiles, listTreeFiles, type RunQuery, referencedFiles, treesOf } from './data-files.ts';
import { pgDump, writeGzip } from './database-dump.ts';
import { type BackupManifest, type BackupPart, type BackupReason, eachLimit, writeManifest } from './manifest.ts';
import { archiveFolder } from './tar-folder.ts';

/** Where the database comes from: the embedded database open in this process, or a PostgreSQL server. */
export type BackupSource = { kind: 'pglite'; handle: DbHandle } | { kind: 'pg'; url: string };

export interface CreateBackupOptions {
  source: BackupSource;
  dataDir: string;
  /** The folder the backup's own folder is made in. */
  outRoot: string;
  withRecordings: boolean;
  reason: BackupReason;
  /** Copies one file into the backup, hashing it on the way (tests replace it to run out of disk). */
  copyPart?: (from: string, to: string) => Promise<BackupPart>;
  /** Runs in the backup's moment, reading the database as the backup does (tests compare a restore with it). */
  atMoment?: (run: RunQuery) => Promise<void>;
}

export interface BackupResult {
  name: string;
  path: string;
  manifest: BackupManifest;
  durationMs: number;
}

export const BACKUP_PREFIX = 'sitewatch-backup-';
const DATABASE_PART = { pglite: 'database.tar.gz', pg: 'database.pgdump' } as const;

/** A backup folder's name: its time to the second, sortable (`sitewatch-backup-2026-12-06T09-01-02Z`). */
export const backupName = (at: Date) => `${BACKUP_PREFIX}${at.toISOString().slice(0, 19).replace(/:/g, '-')}Z`;

async function copyAndHash(from: string, to: string, path: string): Promise<BackupPart> {
  const hash = createHash('sha256');
  let bytes = 0;
  await mkdir(dirname(to), { recursive: true });
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(createReadStream(from), tap, createWriteStream(to, { flags: 'wx' }));
  return { path, bytes, sha256: hash.digest('hex') };
}

async function hashPart(dir: string, path: string): Promise<BackupPart> {
  const file = join(dir, path);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return { path, bytes: (await stat(file)).size, sha256: hash.digest('hex') };
}

const MIGRATIONS_QUERY = 'select name from kysely_migration order by name';

interface DatabaseMoment {
  createdAt: Date;
  migrations: string[];
  referenced: string[];
}

/**
 * The embedded database as of one moment. Its one session is held (no statement of anyone else runs) only while the
 * data folder is checkpointed and its files copied beside it and the data files are held, so the copy and the files
 * agree; the copy is then archived and compressed while requests are served again. An in-memory database (tests) has
 * no folder to copy and is dumped by PGlite itself.
 */
async function readPglite(handle: DbHandle, opts: CreateBackupOptions, staging: string, partDir: string): Promise<DatabaseMoment> {
  const pglite = handle.pglite;
  if (!pglite) throw new Error('the embedded database is not open');
  const dbDir = pglite.dataDir && !pglite.dataDir.includes('://') ? pglite.dataDir : undefined;
  const copy = join(staging, '.database');
  const { tar, moment } = await handle.db.connection().execute(async (conn) => {
    const run: RunQuery = async (text) => (await sql.raw<Record<string, unknown>>(text).execute(conn)).rows;
    await run('checkpoint');
    const moment: DatabaseMoment = {
      createdAt: new Date(),
      migrations: (await run(MIGRATIONS_QUERY)).map((r) => String(r.name)),
      referenced: await referencedFiles(run, opts.withRecordings),
    };
    await opts.atMoment?.(run);
    let tar: Blob | undefined;
    if (dbDir) await cp(dbDir, copy, { recursive: true });
    else tar = await pglite.dumpDataDir('none');
    await holdFiles(opts.dataDir, staging, treesOf(opts.withRecordings));
    return { tar, moment };
  });
  const file = join(partDir, DATABASE_PART.pglite);
  if (tar) await writeGzip(Readable.fromWeb(tar.stream() as import('node:stream/web').ReadableStream), file);
  else await archiveFolder(copy, file);
  return moment;
}

/**
 * PostgreSQL as of one moment: a repeatable-read transaction exports its snapshot and pg_dump reads that snapshot.
 * Files are held before the moment (a file deleted afterwards is kept) and again after it (a file written for a row
 * committed just before the moment is taken too).
 */
async function readPostgres(url: string, opts: CreateBackupOptions, staging: string, partDir: string): Promise<DatabaseMoment> {
  const trees = treesOf(opts.withRecordings);
  await holdFiles(opts.dataDir, staging, trees);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const { rows } = await client.query<{ snapshot: string; at: Date }>('select pg_export_snapshot() as snapshot, now() as at');
    const { snapshot, at } = rows[0] as { snapshot: string; at: Date };
    const run: RunQuery = async (text) => (await client.query(text)).rows;
    const moment: DatabaseMoment = {
      createdAt: new Date(at),
      migrations: (await run(MIGRATIONS_QUERY)).map((r) => String(r.name)),
      referenced: await referencedFiles(run, opts.withRecordings),
    };
    await opts.atMoment?.(run);
    await holdFiles(opts.dataDir, staging, trees);
    await pgDump(url, snapshot, join(partDir, DATABASE_PART.pg));
    await client.query('commit');
    return moment;
  } finally {
    await client.end();
  }
}

/**
 * Makes a backup: the database as of one moment and every file of the data folder it names (recordings when asked),
 * each part with its sha256 in `manifest.json`. It is written into a hidden `.part` folder and renamed into place once
 * complete, so a backup that fails (a full disk) leaves nothing that looks like a backup.
 */
export async function createBackup(opts: CreateBackupOptions): Promise<BackupResult> {
  const started = performance.now();
  await mkdir(opts.outRoot, { recursive: true });
  let name = backupName(new Date());
  for (let i = 2; existsSync(join(opts.outRoot, name)); i++) name = `${backupName(new Date())}-${i}`;
  const partDir = join(opts.outRoot, `.${name}.part`);
  const staging = join(opts.dataDir, `.backup-staging-${process.pid}-${Date.now()}`);
  const copyPart =
    opts.copyPart ??
    ((from, to) =>
      copyAndHash(
        from,
        to,
        to
          .slice(partDir.length + 1)
          .split('\\')
          .join('/'),
      ));
  await mkdir(partDir, { recursive: true });
  try {
    const moment =
      opts.source.kind === 'pglite'
        ? await readPglite(opts.source.handle, opts, staging, partDir)
        : await readPostgres(opts.source.url, opts, staging, partDir);
    const held = new Set(await listTreeFiles(staging, treesOf(opts.withRecordings)));
    const missingAtSource = [...new Set(moment.referenced.filter((f) => !held.has(f)))].sort();
    const parts: BackupPart[] = [];
    await eachLimit([...held].sort(), 4, async (file) => {
      const to = join(partDir, 'files', ...file.split('/'));
      const part = await copyPart(join(staging, ...file.split('/')), to);
      parts.push({ ...part, path: `files/${file}` });
    });
    const databasePart = DATABASE_PART[opts.source.kind];
    parts.push(await hashPart(partDir, databasePart));
    parts.sort((a, b) => a.path.localeCompare(b.path));
    const manifest = await writeManifest(partDir, {
      createdAt: moment.createdAt.toISOString(),
      reason: opts.reason,
      database: { kind: opts.source.kind, part: databasePart, migrations: moment.migrations },
      withRecordings: opts.withRecordings,
      missingAtSource,
      parts,
    });
    const path = join(opts.outRoot, name);
    await rename(partDir, path);
    return { name, path, manifest, durationMs: Math.round(performance.now() - started) };
  } catch (error) {
    await rm(partDir, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      throw new Error(
        `The backup did not finish: no space left on the disk of ${opts.outRoot}. Nothing was kept; free some space and run it again.`,
      );
    }
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The complete backups in a folder (those with a manifest), oldest first. */
export async function listBackups(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && e.name.startsWith(BACKUP_PREFIX) && existsSync(join(root, e.name, 'manifest.json')))
    .map((e) => e.name)
    .sort();
}
