import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DbHandle, openPglite, openPostgres } from '../../src/platform/db.ts';
import { migrateToLatest } from '../../src/platform/migrate.ts';

/**
 * A fresh, migrated database for one test file: embedded PGlite in memory, or, when TEST_DATABASE_URL is set,
 * a new database on that PostgreSQL server that is dropped afterwards.
 */
export async function freshDatabase(): Promise<DbHandle> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openPglite(null);
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `sw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = openPostgres(url.toString(), 5);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
