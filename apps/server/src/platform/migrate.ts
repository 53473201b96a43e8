import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../db/migrations/', import.meta.url));
const MIGRATION_LOCK = 727274;

/** Every file in db/migrations is one migration, applied in name order. */
export class FolderMigrationProvider implements MigrationProvider {
  readonly #dir: string;
  constructor(dir = MIGRATIONS_DIR) {
    this.#dir = dir;
  }
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(this.#dir)).filter((f) => /^\d{4}_.+\.ts$/.test(f) && !f.endsWith('.test.ts')).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.ts$/, '')] = (await import(new URL(file, `file://${this.#dir}`).href)) as Migration;
    }
    return migrations;
  }
}

/** The database was written by a newer build: it holds migrations this one does not know. */
export class DatabaseTooNewError extends Error {
  readonly unknown: string[];
  constructor(unknown: string[]) {
    super(
      `This database was upgraded by a newer version of Sitewatch: it has migration${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}, which this version does not know. ` +
        'Nothing was changed. Run the newer version, or restore a backup made by this version into an empty data folder or database.',
    );
    this.unknown = unknown;
  }
}

export class MigrationFailedError extends Error {}

export interface MigrationState {
  /** Migrations recorded in the database. */
  applied: string[];
  /** Migrations of this build not yet applied. */
  pending: string[];
  /** Applied migrations this build does not know (a newer build's). */
  unknown: string[];
}

/** Which migrations the database has and which this build would apply; reads only. */
export async function migrationState(db: Db, provider: MigrationProvider = new FolderMigrationProvider()): Promise<MigrationState> {
  const known = Object.keys(await provider.getMigrations()).sort();
  const { rows: exists } = await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db);
  const applied = exists[0]?.t
    ? (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name)
    : [];
  const appliedSet = new Set(applied);
  const knownSet = new Set(known);
  return { applied, pending: known.filter((m) => !appliedSet.has(m)), unknown: applied.filter((m) => !knownSet.has(m)) };
}

/** The database holds data worth a backup: its migrations were applied and a tenant exists. */
export async function holdsData(db: Db): Promise<boolean> {
  const { rows } = await sql<{ t: string | null }>`select to_regclass('tenants')::text as t`.execute(db);
  if (!rows[0]?.t) return false;
  const { rows: tenants } = await sql<{ n: number }>`select count(*)::int as n from (select 1 from tenants limit 1) t`.execute(db);
  return (tenants[0]?.n ?? 0) > 0;
}

/**
 * Applies the pending migrations, all in one transaction (Kysely's Migrator opens it on PostgreSQL and PGlite): when
 * one fails, none of them stays applied and the error names the migration and the database's reason. A database
 * with migrations this build does not know is refused before anything runs.
 */
export async function migrateToLatest(
  db: Db,
  options: {
    provider?: MigrationProvider;
    /** Runs under the migration lock when migrations are about to be applied (the backup before an upgrade). */
    beforeApplying?: () => Promise<void>;
  } = {},
): Promise<string[]> {
  const provider = options.provider ?? new FolderMigrationProvider();
  // Several processes may start together: one applies the migrations while the others wait on the lock.
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK)})`.execute(conn);
    try {
      const state = await migrationState(conn, provider);
      if (state.unknown.length > 0) throw new DatabaseTooNewError(state.unknown);
      if (state.pending.length === 0) return [];
      await options.beforeApplying?.();
      // Each domain numbers its migrations in its own range, so a later migration may sort before one applied earlier.
      const migrator = new Migrator({ db: conn, provider, allowUnorderedMigrations: true });
      const { error, results } = await migrator.migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error || failed) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new MigrationFailedError(
          `Migration ${failed?.migrationName ?? '(before the first one)'} failed: ${reason}. No migration was applied: the database is as it was before this start.`,
        );
      }
      return results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK)})`.execute(conn);
    }
  });
}
