import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle, EMBEDDED_TURN_MS, openPglite } from '../src/platform/db.ts';

/** Keeps the thread busy, as a statement of the embedded database does while it runs. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* spin */
  }
}

/** Counts the event loop's turns from now until `stop`, which returns the count. */
function countTurns() {
  let turns = 0;
  let stopped = false;
  const turn = () => {
    turns++;
    if (!stopped) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop() {
      stopped = true;
      return turns;
    },
  };
}

describe('the embedded session', () => {
  let database: DbHandle;
  beforeAll(async () => {
    database = await openPglite(null);
  });
  afterAll(() => database.close());

  it('lets the event loop turn while a queue of callers takes it in turn', async () => {
    const callers = 40;
    const perCaller = 1;
    const queue = Array.from({ length: callers }, () =>
      database.db.connection().execute(async (connection) => {
        busy(perCaller);
        return sql<{ one: number }>`select ${1}::int as one`.execute(connection);
      }),
    );
    const turns = countTurns();
    const results = await Promise.all(queue);
    const counted = turns.stop();
    expect(results.every((r) => r.rows[0]?.one === 1)).toBe(true);
    // Passed on in microtasks alone, the whole queue ran within one turn of the loop.
    expect(counted).toBeGreaterThanOrEqual(Math.floor((callers * perCaller) / EMBEDDED_TURN_MS / 2));
  });

  it('lets the event loop turn during a long run of statements by one caller', async () => {
    const statements = 40;
    const turns = countTurns();
    const sum = await database.db.transaction().execute(async (trx) => {
      let total = 0;
      for (let i = 0; i < statements; i++) {
        busy(1);
        total += (await sql<{ n: number }>`select ${i}::int as n`.execute(trx)).rows[0]?.n ?? 0;
      }
      return total;
    });
    const counted = turns.stop();
    expect(sum).toBe((statements * (statements - 1)) / 2);
    expect(counted).toBeGreaterThanOrEqual(Math.floor(statements / EMBEDDED_TURN_MS / 2));
  });

  it('keeps a transaction whole while others wait', async () => {
    await sql`create table if not exists turn_probe (n int)`.execute(database.db);
    const writer = database.db.transaction().execute(async (trx) => {
      await sql`insert into turn_probe values (1)`.execute(trx);
      busy(EMBEDDED_TURN_MS * 2);
      await sql`insert into turn_probe values (2)`.execute(trx);
      return sql<{ n: number }>`select count(*)::int as n from turn_probe`.execute(trx);
    });
    const reader = sql<{ n: number }>`select count(*)::int as n from turn_probe`.execute(database.db);
    const [inside, outside] = await Promise.all([writer, reader]);
    expect(inside.rows[0]?.n).toBe(2);
    expect([0, 2]).toContain(outside.rows[0]?.n);
  });
});
