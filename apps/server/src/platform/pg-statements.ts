import type pg from 'pg';
import { createRowShaper } from './pg-rows.ts';

/** Named statements a connection keeps at most; statements past it run unnamed, as before. */
export const MAX_NAMED_PER_CONNECTION = 300;
/** Uses of a statement text before it gets a name: a text seen once (a seed, a migration) is not kept. */
const USES_BEFORE_NAMING = 2;
/**
 * Statements with more parameters stay unnamed: multi-row inserts of telemetry and imports, whose text changes with
 * their row count and whose plan is trivial.
 */
const MAX_NAMED_PARAMETERS = 100;
/** Texts counted at most; the count starts over past it. */
const MAX_COUNTED = 5_000;
/** "cached plan must not change result type": a table changed under a prepared `select *`. */
const FEATURE_NOT_SUPPORTED = '0A000';

type QueryResult = pg.QueryResult<Record<string, unknown>>;
/** Names are unique in the process, so two sets of statements on one connection never collide. */
let counter = 0;

/**
 * Statements with parameters run as named prepared statements of their connection: PostgreSQL parses the text once
 * per connection and, after five runs, keeps a generic plan when it is as good as the custom ones. Unnamed, every
 * call was parsed and planned again, and planning cost more than running: a page of tickets spent 2.0 ms in
 * bind (where planning happens) against 0.2 ms executing.
 *
 * A text is named on its second use (bulk statements never), and a connection keeps at most
 * MAX_NAMED_PER_CONNECTION names (never closed; they go with the connection), so one-off statements take no room
 * on the server.
 */
export function createNamedStatements(max = MAX_NAMED_PER_CONNECTION) {
  const uses = new Map<string, number>();
  /** Per connection: statement text → its name there. */
  const named = new WeakMap<pg.PoolClient, Map<string, string>>();
  const shape = createRowShaper();

  function nameFor(client: pg.PoolClient, text: string): string | undefined {
    let names = named.get(client);
    const known = names?.get(text);
    if (known) return known;
    const seen = (uses.get(text) ?? 0) + 1;
    if (seen < USES_BEFORE_NAMING) {
      if (uses.size >= MAX_COUNTED) uses.clear();
      uses.set(text, seen);
      return undefined;
    }
    if (!names) {
      names = new Map();
      named.set(client, names);
    }
    if (names.size >= max) return undefined;
    const name = `sw_${++counter}`;
    names.set(text, name);
    return name;
  }

  async function query(client: pg.PoolClient, text: string, values: readonly unknown[]): Promise<QueryResult> {
    // Without parameters the simple protocol runs the text as it is (several statements in one, as migrations do).
    if (values.length === 0) return client.query(text);
    const run = async (name?: string) =>
      shape(text, await client.query({ ...(name ? { name } : {}), text, values: values as unknown[], rowMode: 'array' }));
    const name = values.length <= MAX_NAMED_PARAMETERS ? nameFor(client, text) : undefined;
    if (!name) return run();
    try {
      return await run(name);
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      if (code !== FEATURE_NOT_SUPPORTED || !message?.includes('cached plan')) throw error;
      // The table changed shape: this run goes unnamed, and the next use takes a new name.
      named.get(client)?.delete(text);
      return run();
    }
  }

  /** The pool as Kysely's dialect sees it: its clients run statements through `query` above. */
  function wrap(pool: pg.Pool) {
    return {
      async connect() {
        const client = await pool.connect();
        return {
          query: (text: string, values: readonly unknown[]) => query(client, text, values),
          release: (error?: Error | boolean) => client.release(error),
          // read by Kysely to cancel a query of this connection
          processID: (client as unknown as { processID?: number }).processID,
        };
      },
      end: () => pool.end(),
    };
  }

  return { wrap, query };
}
