import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNamedStatements } from '../src/platform/pg-statements.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('named statements on PostgreSQL', () => {
  const name = `sw_test_${randomBytes(6).toString('hex')}`;
  let pool: pg.Pool;
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl as string);
    url.pathname = `/${name}`;
    // one connection, so every call below runs on the same server session
    pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
    await pool.query(`create table probe (id int primary key, name text not null);
      insert into probe values (1, 'one'), (2, 'two');`);
  });
  afterAll(async () => {
    await pool?.end();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  async function session(max?: number) {
    const connection = await createNamedStatements(max).wrap(pool).connect();
    const prepared = async () =>
      (await connection.query('select statement from pg_prepared_statements where statement <> $1 order by prepare_time', ['-'])).rows.map(
        (r) => String(r.statement),
      );
    return { connection, prepared };
  }

  it('names a statement on its second use and answers as before', async () => {
    const { connection, prepared } = await session();
    const text = 'select * from probe where id = any($1::int[]) order by id';
    const first = await connection.query(text, [[1, 2]]);
    expect(await prepared()).not.toContain(text);
    const second = await connection.query(text, [[1, 2]]);
    expect(second.rows).toEqual(first.rows);
    expect(second.rows).toEqual([
      { id: 1, name: 'one' },
      { id: 2, name: 'two' },
    ]);
    expect(await prepared()).toContain(text);
    expect((await connection.query(text, [[2]])).rows).toEqual([{ id: 2, name: 'two' }]);
    connection.release();
  });

  it('leaves statements without parameters, bulk statements and those past the limit unnamed', async () => {
    const { connection, prepared } = await session(2);
    const bulk = `select ${Array.from({ length: 101 }, (_, i) => `$${i + 1}::int`).join(' + ')} as n`;
    const texts = [1, 2, 3].map((n) => `select $1::int + ${n} as n`);
    for (let i = 0; i < 2; i++) {
      await connection.query('select 1 as n; select 2 as n', []);
      const ones = Array.from({ length: 101 }, () => 1);
      expect((await connection.query(bulk, ones)).rows).toEqual([{ n: 101 }]);
      for (const text of texts) await connection.query(text, [1]);
    }
    const names = await prepared();
    expect(names).not.toContain(bulk);
    expect(names.filter((s) => texts.includes(s))).toHaveLength(2);
    expect((await connection.query(texts[2] as string, [1])).rows).toEqual([{ n: 4 }]);
    connection.release();
  });

  it('gives rows as objects keyed by column, the later of two same-named columns winning, __proto__ an own key', async () => {
    const { connection } = await session();
    const text = `select p.id, p.name, 'x' as name, $1::int as "__proto__", null::text as "a b" from probe p where id = $1`;
    for (let i = 0; i < 3; i++) {
      const [row] = (await connection.query(text, [1])).rows;
      expect(row).toEqual({ id: 1, name: 'x', ['__proto__']: 1, 'a b': null });
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(Object.keys(row as object)).toEqual(['id', 'name', '__proto__', 'a b']);
    }
    expect((await connection.query('select id from probe where id = $1', [99])).rows).toEqual([]);
    connection.release();
  });

  it('keeps answering when a table changes shape under a named statement', async () => {
    const { connection } = await session();
    const text = 'select * from probe where id = $1';
    await connection.query(text, [1]);
    expect(Object.keys((await connection.query(text, [1])).rows[0] as object)).toEqual(['id', 'name']);
    await connection.query('alter table probe add column extra int not null default 7', []);
    expect((await connection.query(text, [1])).rows[0]).toEqual({ id: 1, name: 'one', extra: 7 });
    expect((await connection.query(text, [2])).rows[0]).toEqual({ id: 2, name: 'two', extra: 7 });
    await connection.query('alter table probe drop column extra', []);
    connection.release();
  });
});
