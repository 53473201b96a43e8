import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup } from '../src/platform/backup/create-backup.ts';
import { BackupInvalidError, MANIFEST, verifyBackup } from '../src/platform/backup/manifest.ts';
import { RestoreRefusedError, restoreBackup } from '../src/platform/backup/restore-backup.ts';
import { type DbHandle, openPglite, openPostgres } from '../src/platform/db.ts';
import { freshDatabase } from './support/database.ts';
import { adminQuery, databaseUrl } from './support/pg-admin.ts';
import { runOn, tableChecksums } from './support/table-checksums.ts';

/** Backups of a database and the files of its data folder: made, verified, refused when damaged, restored. */
let database: DbHandle;
let root: string;
let dataDir: string;
let outRoot: string;
const adminUrl = process.env.TEST_DATABASE_URL;
const source = () =>
  database.kind === 'pglite' ? ({ kind: 'pglite', handle: database } as const) : ({ kind: 'pg', url: database.url ?? '' } as const);

beforeAll(async () => {
  database = await freshDatabase();
  root = mkdtempSync(join(tmpdir(), 'sw-backup-'));
  dataDir = join(root, 'data');
  outRoot = join(root, 'backups');
  mkdirSync(join(dataDir, 'blobs', 'forms', '1'), { recursive: true });
  mkdirSync(join(dataDir, 'video-exports', '1', 'evidence'), { recursive: true });
  mkdirSync(join(dataDir, 'video', '_default', '1', '5', 'abcdef'), { recursive: true });
  writeFileSync(join(dataDir, 'blobs', 'forms', '1', 'attachment-1'), 'a form attachment');
  writeFileSync(join(dataDir, 'video-exports', '1', 'evidence', '9.mp4'), randomBytes(4096));
  writeFileSync(join(dataDir, 'video', '_default', '1', '5', 'abcdef', 'seg-1.m4s'), randomBytes(2048));
  writeFileSync(join(dataDir, 'blobs', 'forms', '1', 'half-written.123.456.part'), 'not yet');
  await sql`insert into tenants (slug, name) values ('backup-test', 'Backup test')`.execute(database.db);
}, 180_000);

afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

const backupNow = (opts: { withRecordings?: boolean; copyPart?: Parameters<typeof createBackup>[0]['copyPart'] } = {}) =>
  createBackup({
    source: source(),
    dataDir,
    outRoot,
    withRecordings: opts.withRecordings ?? false,
    reason: 'manual',
    copyPart: opts.copyPart,
  });

/** A new empty target: a data folder, and a database on the PostgreSQL server when the source is one. */
async function emptyTarget() {
  const target = { dataDir: mkdtempSync(join(root, 'target-')), databaseUrl: undefined as string | undefined, name: '' };
  if (adminUrl) {
    target.name = `sw_restore_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database ${target.name}`);
    target.databaseUrl = databaseUrl(adminUrl, target.name);
  }
  return target;
}

async function openTarget(target: Awaited<ReturnType<typeof emptyTarget>>): Promise<DbHandle> {
  return target.databaseUrl ? openPostgres(target.databaseUrl, 1) : openPglite(target.dataDir);
}

async function dropTarget(target: Awaited<ReturnType<typeof emptyTarget>>) {
  if (adminUrl && target.name) await adminQuery(adminUrl, `drop database if exists ${target.name} with (force)`);
}

describe('backup', { timeout: 300_000 }, () => {
  it('writes the database and the data files, each with its checksum, and verifies', async () => {
    const made = await backupNow();
    expect(made.path.startsWith(outRoot)).toBe(true);
    const paths = made.manifest.parts.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([made.manifest.database.part, 'files/blobs/forms/1/attachment-1', 'files/video-exports/1/evidence/9.mp4']),
    );
    // recordings only when asked for; a file still being written is never taken
    expect(paths.some((p) => p.startsWith('files/video/'))).toBe(false);
    expect(paths.some((p) => p.endsWith('.part'))).toBe(false);
    expect(made.manifest.database.kind).toBe(database.kind);
    expect(made.manifest.database.migrations).toContain('1260_backup_runs');
    for (const part of made.manifest.parts) expect(part.sha256).toMatch(/^[0-9a-f]{64}$/);
    await expect(verifyBackup(made.path)).resolves.toMatchObject({ totalBytes: made.manifest.totalBytes });
    // nothing half-made is left beside it
    expect(readdirSync(outRoot).filter((e) => e.startsWith('.'))).toEqual([]);
  });

  it('takes the recordings when asked', async () => {
    const made = await backupNow({ withRecordings: true });
    expect(made.manifest.withRecordings).toBe(true);
    expect(made.manifest.parts.map((p) => p.path)).toContain('files/video/_default/1/5/abcdef/seg-1.m4s');
  });

  it('leaves nothing that looks like a backup when the disk fills up', async () => {
    const before = readdirSync(outRoot);
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    await expect(backupNow({ copyPart: () => Promise.reject(full) })).rejects.toThrow(/no space left on the disk.*Nothing was kept/);
    expect(readdirSync(outRoot)).toEqual(before);
    expect(readdirSync(dataDir).filter((e) => e.startsWith('.backup-staging'))).toEqual([]);
  });
});

describe('verify and restore refuse a damaged backup before writing anything', { timeout: 120_000 }, () => {
  let intact: string;
  beforeAll(async () => {
    intact = (await backupNow()).path;
  }, 120_000);
  /** A copy of one intact backup, damaged. */
  const damaged = async (damage: (dir: string) => void) => {
    const dir = mkdtempSync(join(root, 'damaged-'));
    cpSync(intact, dir, { recursive: true });
    damage(dir);
    return dir;
  };

  const refusedEverywhere = async (dir: string, problem: RegExp) => {
    await expect(verifyBackup(dir)).rejects.toThrow(problem);
    const target = await emptyTarget();
    try {
      await expect(restoreBackup({ backupDir: dir, ...target })).rejects.toBeInstanceOf(BackupInvalidError);
      expect(readdirSync(target.dataDir)).toEqual([]);
      if (target.databaseUrl) {
        const db = openPostgres(target.databaseUrl, 1);
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_tables where schemaname = 'public'`.execute(db.db);
        await db.close();
        expect(rows[0]?.n).toBe(0);
      }
    } finally {
      await dropTarget(target);
    }
  };

  it('a truncated database part', async () => {
    const dir = await damaged((d) => {
      const file = join(d, readdirSync(d).find((f) => f.startsWith('database.')) as string);
      truncateSync(file, Math.floor(readFileSync(file).length / 2));
    });
    await refusedEverywhere(dir, /database\.\S+ has \d+ bytes, \d+ expected/);
  });

  it('a changed file', async () => {
    const dir = await damaged((d) => writeFileSync(join(d, 'files', 'blobs', 'forms', '1', 'attachment-1'), 'a form attachmenT'));
    await refusedEverywhere(dir, /attachment-1 does not match its checksum/);
  });

  it('a missing file', async () => {
    const dir = await damaged((d) => rmSync(join(d, 'files', 'video-exports', '1', 'evidence', '9.mp4')));
    await refusedEverywhere(dir, /9\.mp4 is missing/);
  });

  it('an edited manifest', async () => {
    const dir = await damaged((d) => {
      const manifest = JSON.parse(readFileSync(join(d, MANIFEST), 'utf8'));
      manifest.parts[0].bytes += 1;
      writeFileSync(join(d, MANIFEST), JSON.stringify(manifest));
    });
    await refusedEverywhere(dir, /manifest\.json was changed/);
  });

  it('a folder without a manifest (a backup that never finished)', async () => {
    const dir = await damaged((d) => rmSync(join(d, MANIFEST)));
    await refusedEverywhere(dir, /manifest\.json is missing/);
  });
});

describe('restore', { timeout: 300_000 }, () => {
  it('brings back the database and the files into an empty target', async () => {
    const made = await backupNow({ withRecordings: true });
    const target = await emptyTarget();
    try {
      await restoreBackup({ backupDir: made.path, ...target });
      expect(readFileSync(join(target.dataDir, 'blobs', 'forms', '1', 'attachment-1'), 'utf8')).toBe('a form attachment');
      expect(existsSync(join(target.dataDir, 'video', '_default', '1', '5', 'abcdef', 'seg-1.m4s'))).toBe(true);
      const restored = await openTarget(target);
      try {
        expect(await tableChecksums(runOn(restored.db))).toEqual(await tableChecksums(runOn(database.db)));
      } finally {
        await restored.close();
      }
    } finally {
      await dropTarget(target);
    }
  });

  it('refuses a target that is not empty, naming what is there', async () => {
    const made = await backupNow();
    const target = await emptyTarget();
    try {
      await restoreBackup({ backupDir: made.path, ...target });
      await expect(restoreBackup({ backupDir: made.path, ...target })).rejects.toThrow(RestoreRefusedError);
      await expect(restoreBackup({ backupDir: made.path, ...target })).rejects.toThrow(/is not empty/);
    } finally {
      await dropTarget(target);
    }
  });

  it('refuses a backup of the other kind of database', async () => {
    const made = await backupNow();
    const target = {
      dataDir: mkdtempSync(join(root, 'target-')),
      databaseUrl: adminUrl ? undefined : 'postgres://nobody@127.0.0.1:1/none',
    };
    await expect(restoreBackup({ backupDir: made.path, ...target })).rejects.toThrow(/restore it into the same kind/);
    expect(readdirSync(target.dataDir)).toEqual([]);
  });
});
