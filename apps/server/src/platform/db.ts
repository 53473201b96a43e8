import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, type LogEvent, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/types.ts';
import { copyTemplate } from './db-template.ts';
import { createNamedStatements } from './pg-statements.ts';
import { parseTimestamptz, TIMESTAMPTZ } from './pg-timestamps.ts';
import { createPreparedStatements, type NotificationListener, type PreparedStatements } from './pglite-statements.ts';

export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  kind: 'pg' | 'pglite';
  /** The PGlite instance in embedded mode (raw access). */
  pglite?: PGlite;
  /**
   * Embedded mode: calls `listener` with every notification of the database (its own NOTIFYs, which PGlite's one
   * session hears); returns the function that stops it.
   */
  onNotification?(listener: NotificationListener): () => void;
  /** Connection string in PostgreSQL mode. */
  url?: string;
  close(): Promise<void>;
  /** Calls `listener` after every query with its duration (metrics); returns the function that stops it. */
  onQuery(listener: QueryListener): () => void;
  /** Connections of the pool: open, idle, and callers waiting for one (PGlite: one session). */
  poolStats(): { total: number; idle: number; waiting: number };
}

export type QueryListener = (seconds: number, ok: boolean) => void;

/** Kysely's log hook feeding the query listeners; costs one array check per query while nobody listens. */
function queryLog() {
  const listeners: QueryListener[] = [];
  return {
    log: (event: LogEvent) => {
      for (const fn of listeners) fn(event.queryDurationMillis / 1000, event.level === 'query');
    },
    onQuery(listener: QueryListener) {
      listeners.push(listener);
      return () => {
        const i = listeners.indexOf(listener);
        if (i >= 0) listeners.splice(i, 1);
      };
    },
  };
}

const EMBEDDED_SHARED_BUFFERS = '8MB';
const INT8 = 20;
const NUMERIC = 1700;

/** ids and counts fit in a double; numbers beat strings for every caller. */
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));
pg.types.setTypeParser(TIMESTAMPTZ, parseTimestamptz);

export function openPostgres(url: string, max = 10): DbHandle {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {
    /* an idle client lost its connection; the pool replaces it */
  });
  const queries = queryLog();
  // biome-ignore lint/suspicious/noExplicitAny: PostgresDialect only needs connect() and end()
  const named = createNamedStatements().wrap(pool) as any;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: named }), log: queries.log });
  return {
    db,
    kind: 'pg',
    url,
    close: () => db.destroy(),
    onQuery: queries.onQuery,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/**
 * How long the embedded session passes from caller to caller before the event loop gets a turn. Sockets are read and
 * connections accepted only between turns, and libuv accepts one connection a turn. Passed on in microtasks, the
 * statements of 100 requests under load made one turn last 70–100 ms, so 100 clients connecting at once waited up to
 * 7 s to have their connections taken while those already connected were served.
 */
export const EMBEDDED_TURN_MS = 5;

/**
 * PGlite runs one session, so a "connection" is the whole database: connect() holds a lock until release()
 * so that a transaction never interleaves with another request's statements. Callers get it in turn; once
 * `EMBEDDED_TURN_MS` have passed since the loop's last turn, the next caller gets it on the loop's next turn.
 */
class PGlitePool {
  #tail: Promise<void> = Promise.resolve();
  /** When the session was last passed on after a turn of the event loop. */
  #turnStart = 0;
  /** Callers holding or waiting for the session. */
  holders = 0;
  readonly #pglite: PGlite;
  readonly #statements: PreparedStatements;
  constructor(pglite: PGlite, onNotification: NotificationListener) {
    this.#pglite = pglite;
    this.#statements = createPreparedStatements(pglite, undefined, onNotification);
  }

  /** Waits for a turn of the event loop once `EMBEDDED_TURN_MS` have passed since the last one; else goes on. */
  async #turn() {
    if (performance.now() - this.#turnStart < EMBEDDED_TURN_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#turnStart = performance.now();
  }

  async connect() {
    // PGlite runs each statement synchronously on this thread and answers through microtasks, so a chain of
    // statements (demo seeding, an ingest flush) would never let timers and sockets run: give them a turn first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    let unlock!: () => void;
    const acquired = this.#tail;
    this.#tail = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    this.holders++;
    const release = () => {
      this.holders--;
      void this.#turn().then(unlock);
    };
    await acquired;
    const pglite = this.#pglite;
    const statements = this.#statements;
    // One caller's own run of statements (a transaction, the demo's seeding, an ingest flush) lets the loop turn as
    // well; the session stays held meanwhile.
    const turn = () => this.#turn();
    return {
      async query(sql: string, params: readonly unknown[]) {
        await turn();
        // The simple protocol allows several statements (migrations); the extended one binds parameters.
        const result =
          params.length === 0 ? ((await pglite.exec(sql)).at(-1) ?? { rows: [], affectedRows: 0 }) : await statements.query(sql, params);
        const command = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
        return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length, command };
      },
      release,
    };
  }

  async end() {}
}

/** `loadDataDir`: an in-memory database starts from this dump of a data folder (the tests' migrated template). */
export async function openPglite(dataDir: string | null, options: { loadDataDir?: Blob } = {}): Promise<DbHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const dbDir = dataDir ? join(dataDir, 'db') : undefined;
  // A new data folder starts from the migrated template when there is one (db-template.ts).
  if (dbDir && !existsSync(join(dbDir, 'PG_VERSION'))) copyTemplate(dbDir);
  const pglite = await PGlite.create(dbDir, {
    parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v), [TIMESTAMPTZ]: parseTimestamptz },
    // The embedded database's buffer pool lives in this process's memory, and WebAssembly memory is never given back:
    // 8 MB (PostgreSQL's default is 128 MB) keeps the idle server 29 MB smaller than 32 MB did. Pages it cannot hold are
    // read from the data folder through the operating system's cache; the demo's ticket list was served as fast.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    loadDataDir: options.loadDataDir,
  });
  // Notifications come in the answers of prepared statements (read here) and of plain statements (read by PGlite).
  const listeners = new Set<NotificationListener>();
  const notify: NotificationListener = (channel, payload) => {
    for (const listener of listeners) listener(channel, payload);
  };
  pglite.onNotification(notify);
  const pool = new PGlitePool(pglite, notify);
  const queries = queryLog();
  // biome-ignore lint/suspicious/noExplicitAny: PostgresDialect only needs connect() and end()
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as any }), log: queries.log });
  return {
    db,
    kind: 'pglite',
    pglite,
    onNotification(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onQuery: queries.onQuery,
    poolStats: () => ({ total: 1, idle: pool.holders === 0 ? 1 : 0, waiting: Math.max(0, pool.holders - 1) }),
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string | null }): Promise<DbHandle> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}

const sqlState = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * The statement's data was refused (SQLSTATE class 22, data exception, or 23, integrity constraint): retrying the
 * same rows can never succeed, unlike a lost connection.
 */
export function isDataError(error: unknown): boolean {
  const code = sqlState(error);
  return code !== undefined && /^2[23]/.test(code);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
]);

/**
 * The database cannot be reached or will not take work now (connection refused or lost, server shutting down or
 * starting, too many connections): the request may succeed later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = sqlState(error);
  if (code && (CONNECTION_CODES.has(code) || /^(08|57P0[1-3]|53300)/.test(code))) return true;
  const message = error instanceof Error ? error.message : '';
  // node-postgres reports a pool that cannot reach the server, or a socket closed under a query, with plain errors
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error|Failed to connect|PGlite is closed/i.test(
    message,
  );
}
