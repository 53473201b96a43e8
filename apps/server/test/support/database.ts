import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type DbHandle, openPglite, openPostgres } from '../../src/platform/db.ts';
import { migrateToLatest } from '../../src/platform/migrate.ts';
import { adminQuery, databaseUrl } from './pg-admin.ts';

let pgliteDump: Blob | undefined;

/**
 * The template archive, read once per worker. PGlite reads the archive it is given whole; Node's Blob would hand its
 * bytes over in small chunks and join them again for every test file, a copy of the bytes is much cheaper.
 */
class ArchiveInMemory extends Blob {
  readonly #contents: ArrayBuffer;
  constructor(contents: ArrayBuffer) {
    super([]);
    this.#contents = contents;
  }
  override arrayBuffer() {
    return Promise.resolve(this.#contents.slice(0));
  }
}

function readArchive(path: string): Blob {
  const file = readFileSync(path);
  return new ArchiveInMemory(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer);
}

/**
 * A fresh, migrated database for one test file: embedded PGlite in memory, or, when TEST_DATABASE_URL is set,
 * a new database on that PostgreSQL server that is dropped afterwards. Both are copies of the run's migrated template
 * (global-setup.ts); the migrations still run, so a template that lacks one is brought up to date.
 */
export async function freshDatabase(): Promise<DbHandle> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = inject('databaseTemplate');
  if (!adminUrl) {
    if (template?.kind === 'pglite') pgliteDump ??= readArchive(template.dump);
    const handle = await openPglite(null, { loadDataDir: pgliteDump });
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `sw_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, template?.kind === 'pg' ? `create database ${name} template ${template.name}` : `create database ${name}`);
  const handle = openPostgres(databaseUrl(adminUrl, name), 5);
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
