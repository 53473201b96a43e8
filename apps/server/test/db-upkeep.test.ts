import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../src/platform/db.ts';
import { createDatabaseUpkeep } from '../src/platform/db-upkeep.ts';
import { freshDatabase } from './support/database.ts';

const quiet = { debug() {}, info() {}, warn() {} };

describe('database upkeep', () => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await freshDatabase();
    await handle.db.connection().execute(async (db) => {
      await sql`create table upkeep_probe (id int primary key, n int not null)`.execute(db);
      await sql`insert into upkeep_probe select i, 0 from generate_series(1, 1000) i`.execute(db);
      // A busy PostgreSQL session reports what it changed up to ten seconds later: an ANALYZE before the report of the 1,000
      // inserted rows arrives leaves them counted as changed since, and the next pass rightly analyzes the table again.
      // This session reports now, before the statement answers.
      await sql`select pg_stat_force_next_flush()`.execute(db);
    });
  });
  afterAll(() => handle.close());

  const table = async () => {
    if (handle.kind === 'pglite') await sql`select pg_stat_force_next_flush()`.execute(handle.db);
    const { rows } = await sql<{ reltuples: number; analyzed: Date | null; vacuumed: Date | null; dead: number }>`
      select c.reltuples, s.last_analyze as analyzed, s.last_vacuum as vacuumed, s.n_dead_tup as dead
      from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'upkeep_probe'`.execute(handle.db);
    return rows[0] as { reltuples: number; analyzed: Date | null; vacuumed: Date | null; dead: number };
  };

  it('gives a table that was never analyzed its planner statistics', async () => {
    expect((await table()).reltuples).toBeLessThan(0);
    await createDatabaseUpkeep(handle, quiet).runOnce();
    const after = await table();
    expect(after.reltuples).toBe(1000);
    expect(after.analyzed).not.toBeNull();
  });

  it('leaves a table alone until enough of it changed', async () => {
    const before = await table();
    await sql`update upkeep_probe set n = 1 where id <= 10`.execute(handle.db);
    await createDatabaseUpkeep(handle, quiet).runOnce();
    expect((await table()).analyzed).toEqual(before.analyzed);
  });

  it('embedded, vacuums the dead rows of a much-updated table (PostgreSQL leaves that to autovacuum)', async () => {
    if (handle.kind !== 'pglite') return;
    await sql`update upkeep_probe set n = n + 1`.execute(handle.db);
    expect((await table()).dead).toBeGreaterThan(250);
    await createDatabaseUpkeep(handle, quiet).runOnce();
    const after = await table();
    expect(after.vacuumed).not.toBeNull();
    expect(after.dead).toBe(0);
  });

  it('a pass asked for while one runs is the same pass, and stop waits for it', async () => {
    const upkeep = createDatabaseUpkeep(handle, quiet);
    const first = upkeep.runOnce();
    expect(upkeep.runOnce()).toBe(first);
    await upkeep.stop();
  });
});
