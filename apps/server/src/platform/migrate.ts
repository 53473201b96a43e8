import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../db/migrations/', import.meta.url));

/** Every file in db/migrations is one migration, applied in name order. */
class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{4}_.+\.ts$/.test(f) && !f.endsWith('.test.ts')).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.ts$/, '')] = (await import(new URL(file, `file://${MIGRATIONS_DIR}`).href)) as Migration;
    }
    return migrations;
  }
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  // Several processes may start together: one applies the migrations while the others wait on the lock.
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(727274)`.execute(conn);
    try {
      // Each domain numbers its migrations in its own range, so a later migration may sort before one applied earlier.
      const migrator = new Migrator({ db: conn, provider: new FolderMigrationProvider(), allowUnorderedMigrations: true });
      const { error, results } = await migrator.migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error || failed) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
      }
      return results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    } finally {
      await sql`select pg_advisory_unlock(727274)`.execute(conn);
    }
  });
}
