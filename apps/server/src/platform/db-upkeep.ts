import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DbHandle } from './db.ts';

/** How often the embedded database is looked after (PostgreSQL's autovacuum wakes every minute too). */
export const UPKEEP_INTERVAL_MS = 60_000;

/** Autovacuum's default thresholds: a table is analyzed after this share of its rows changed, vacuumed after this share died. */
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;

interface Candidate {
  name: string;
  vacuum: boolean;
}

type Log = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn'>;

/**
 * Planner statistics and dead rows. PostgreSQL's autovacuum keeps them, but the embedded database runs as a single
 * session with no autovacuum: its tables would never be analyzed (the planner then guesses a handful of rows and
 * sorts whole tables for a page of ten) and dead rows of updated tables would never be reclaimed. Embedded, a pass
 * runs every minute with autovacuum's thresholds, one table per statement so requests wait at most one table's
 * ANALYZE; on PostgreSQL one pass after a bulk load (the demo) spares the first minutes before autovacuum comes.
 */
export function createDatabaseUpkeep(database: DbHandle, log: Log) {
  const db = database.db;
  const embedded = database.kind === 'pglite';
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;

  async function candidates(): Promise<Candidate[]> {
    // The embedded session reports its statistics when told to: the next statement sees them.
    if (embedded) await sql`select pg_stat_force_next_flush()`.execute(db);
    const { rows } = await sql<{ name: string; vacuum: boolean }>`
      select c.oid::regclass::text as name,
             coalesce(s.n_dead_tup, 0) > ${VACUUM_BASE} + ${VACUUM_SCALE} * greatest(c.reltuples, 0) as vacuum
      from pg_class c
      join pg_namespace ns on ns.oid = c.relnamespace and ns.nspname = current_schema()
      left join pg_stat_user_tables s on s.relid = c.oid
      where c.relkind = 'r'
        and (c.reltuples < 0
          or coalesce(s.n_mod_since_analyze, 0) > ${ANALYZE_BASE} + ${ANALYZE_SCALE} * c.reltuples
          or coalesce(s.n_dead_tup, 0) > ${VACUUM_BASE} + ${VACUUM_SCALE} * c.reltuples)
      order by c.relname`.execute(db);
    return rows.map((r) => ({ name: r.name, vacuum: embedded && r.vacuum }));
  }

  async function pass() {
    const started = performance.now();
    const tables = await candidates();
    let vacuumed = 0;
    for (const table of tables) {
      if (stopped) return;
      try {
        // The name comes from the catalogue, quoted where it needs to be.
        await sql.raw(`${table.vacuum ? 'vacuum (analyze)' : 'analyze'} ${table.name}`).execute(db);
        if (table.vacuum) vacuumed++;
      } catch (err) {
        // A table dropped meanwhile (an old partition) or locked: the next pass sees it again.
        log.debug({ err, table: table.name }, 'database upkeep skipped a table');
      }
    }
    if (tables.length > 0)
      log.debug(`database upkeep: analyzed ${tables.length} tables, vacuumed ${vacuumed} (${Math.round(performance.now() - started)} ms)`);
  }

  /** One pass now; a pass already under way is awaited instead. Never throws. */
  function runOnce(): Promise<void> {
    running ??= pass()
      .catch((err) => log.warn({ err }, 'database upkeep failed; it runs again later'))
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    runOnce,
    /** Embedded: a pass now and every UPKEEP_INTERVAL_MS. PostgreSQL: one pass (autovacuum does the rest). */
    start() {
      stopped = false;
      void runOnce();
      if (embedded && !timer) {
        timer = setInterval(() => void runOnce(), UPKEEP_INTERVAL_MS);
        timer.unref();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
export type DatabaseUpkeep = ReturnType<typeof createDatabaseUpkeep>;
