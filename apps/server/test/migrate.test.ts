import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupBeforeMigrating } from '../src/platform/backup/before-migrate.ts';
import { verifyBackup } from '../src/platform/backup/manifest.ts';
import type { DbHandle } from '../src/platform/db.ts';
import {
  DatabaseTooNewError,
  FolderMigrationProvider,
  MigrationFailedError,
  migrateToLatest,
  migrationState,
} from '../src/platform/migrate.ts';
import { freshDatabase } from './support/database.ts';

/** Upgrades: a failed migration changes nothing, a newer database is refused before anything runs. */
let database: DbHandle;

beforeAll(async () => {
  database = await freshDatabase();
  await sql`insert into tenants (slug, name) values ('upgrade-test', 'Upgrade test')`.execute(database.db);
});
afterAll(() => database?.close());

/** This build's migrations and some more. */
const withExtra = (extra: Record<string, Migration>): MigrationProvider => ({
  async getMigrations() {
    return { ...(await new FolderMigrationProvider().getMigrations()), ...extra };
  },
});

/** The schema (every column of every table) and the data of the tenants table: what a failed upgrade must leave alone. */
async function snapshot() {
  const { rows: columns } = await sql<{ c: string }>`
    select table_name || '.' || column_name || ':' || data_type as c from information_schema.columns
    where table_schema = 'public' order by 1`.execute(database.db);
  const { rows: tenants } = await sql`select * from tenants order by id`.execute(database.db);
  const { rows: applied } = await sql`select name from kysely_migration order by name`.execute(database.db);
  return { columns: columns.map((r) => r.c), tenants, applied };
}

describe('migrations', { timeout: 120_000 }, () => {
  it('a failed migration leaves the schema and the data as they were, and names the migration and the reason', async () => {
    const before = await snapshot();
    const provider = withExtra({
      '1268_adds_and_changes': {
        async up(db: Kysely<unknown>) {
          await sql`alter table tenants add column upgrade_probe text`.execute(db);
          await sql`update tenants set name = 'changed by an upgrade'`.execute(db);
          await sql`create table upgrade_probe (id int)`.execute(db);
        },
      },
      '1269_fails': {
        async up(db: Kysely<unknown>) {
          await sql`insert into upgrade_probe values (1)`.execute(db);
          await sql`select * from a_table_that_does_not_exist`.execute(db);
        },
      },
    });
    const failure = await migrateToLatest(database.db, { provider }).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(MigrationFailedError);
    expect((failure as Error).message).toMatch(/Migration 1269_fails failed: .*a_table_that_does_not_exist.*No migration was applied/);
    expect(await snapshot()).toEqual(before);
    // the database still works, and the build's own migrations are all there
    expect((await migrationState(database.db)).pending).toEqual([]);
  });

  it('applies pending migrations that succeed, in one go', async () => {
    const provider = withExtra({ '1267_adds_table': { up: async (db) => void (await sql`create table upgrade_ok (id int)`.execute(db)) } });
    expect(await migrateToLatest(database.db, { provider })).toEqual(['1267_adds_table']);
    await sql`drop table upgrade_ok`.execute(database.db);
    await sql`delete from kysely_migration where name = '1267_adds_table'`.execute(database.db);
  });

  it('refuses a database from a newer version, before changing anything', async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('9990_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(
      database.db,
    );
    try {
      const before = await snapshot();
      const pendingProvider = withExtra({
        '1266_would_run': { up: async (db) => void (await sql`create table must_not_exist (id int)`.execute(db)) },
      });
      const failure = await migrateToLatest(database.db, { provider: pendingProvider }).catch((e: Error) => e);
      expect(failure).toBeInstanceOf(DatabaseTooNewError);
      expect((failure as Error).message).toMatch(
        /newer version of Sitewatch: it has migration 9990_from_the_future, which this version does not know\. Nothing was changed/,
      );
      expect(await snapshot()).toEqual(before);
      // the start refuses it before taking a backup, too
      await expect(
        backupBeforeMigrating(database, { dataDir: '/nonexistent', backupDir: '/nonexistent', enabled: true }),
      ).rejects.toBeInstanceOf(DatabaseTooNewError);
    } finally {
      await sql`delete from kysely_migration where name = '9990_from_the_future'`.execute(database.db);
    }
  });

  it('takes a backup before migrating a database that holds data, unless turned off or up to date', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sw-migrate-'));
    try {
      const settings = { dataDir: join(root, 'data'), backupDir: join(root, 'backups'), enabled: true };
      const pending = withExtra({ '1265_pending': { up: async () => undefined } });
      expect(await backupBeforeMigrating(database, settings)).toBeNull();
      expect(await backupBeforeMigrating(database, { ...settings, enabled: false }, pending)).toBeNull();
      const path = await backupBeforeMigrating(database, settings, pending);
      expect(path).not.toBeNull();
      const manifest = await verifyBackup(path as string);
      expect(manifest.reason).toBe('before-migrate');
      expect(manifest.database.migrations).not.toContain('1265_pending');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
