import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedStatements } from '../src/platform/pglite-statements.ts';

describe('prepared statements of the embedded database', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec(`
      create table probe (id int primary key, name text not null, tags text[] not null default '{}',
        data jsonb not null default '{}', at timestamptz);
      insert into probe (id, name, tags, data, at) values
        (1, 'one', '{a,b}', '{"x":1}', '2026-01-02T03:04:05Z'), (2, 'two', '{}', '{}', null);`);
  });
  afterAll(() => pglite.close());

  const prepared = (text: string) => pglite.query<{ name: string }>('select name from pg_prepared_statements where statement = $1', [text]);

  it('answers as PGlite query does: types, arrays, json, dates and nulls', async () => {
    const statements = createPreparedStatements(pglite);
    const text = 'select * from probe where id = any($1::int[]) and (at is null or at < $2) order by id';
    const params = [[1, 2], new Date('2027-01-01T00:00:00Z')];
    const first = await statements.query(text, params);
    const again = await statements.query(text, params);
    const reference = await pglite.query(text, params);
    expect(first.rows).toEqual(reference.rows);
    expect(again.rows).toEqual(reference.rows);
    expect(first.fields).toEqual(reference.fields);
    expect(first.rows[0]).toMatchObject({ id: 1, tags: ['a', 'b'], data: { x: 1 }, at: new Date('2026-01-02T03:04:05Z') });
    expect((await prepared(text)).rows).toHaveLength(1);
  });

  it('counts the rows a change touched', async () => {
    const statements = createPreparedStatements(pglite);
    const result = await statements.query('update probe set name = name || $1 where id > $2', ['!', 0]);
    expect(result.affectedRows).toBe(2);
    expect(result.rows).toEqual([]);
    await statements.query('update probe set name = rtrim(name, $1)', ['!']);
  });

  it('keeps at most its limit of statements, closing the least recently used', async () => {
    const statements = createPreparedStatements(pglite, 3);
    const texts = [1, 2, 3, 4, 5].map((n) => `select $1::int + ${n} as n`);
    for (const [i, text] of texts.entries()) expect((await statements.query(text, [1])).rows).toEqual([{ n: i + 2 }]);
    expect(statements.size).toBe(3);
    // the closes ride with the next round
    await statements.query(texts[4] as string, [1]);
    await statements.query('select $1::int as n', [0]);
    expect((await prepared(texts[0] as string)).rows).toHaveLength(0);
    expect((await prepared(texts[4] as string)).rows).toHaveLength(1);
  });

  it('prepares a statement anew when its table changed shape', async () => {
    const statements = createPreparedStatements(pglite);
    const text = 'select * from probe where id = $1';
    expect(Object.keys((await statements.query(text, [1])).rows[0] as object)).not.toContain('extra');
    await pglite.exec(`alter table probe add column extra int not null default 7`);
    expect((await statements.query(text, [1])).rows[0]).toMatchObject({ id: 1, extra: 7 });
    await pglite.exec('alter table probe drop column extra');
  });

  it('fails with the database error and leaves the session usable', async () => {
    const statements = createPreparedStatements(pglite);
    await expect(statements.query('insert into probe (id, name) values ($1, $2)', [1, 'dup'])).rejects.toMatchObject({ code: '23505' });
    await expect(statements.query('select 1 / $1::int as x', [0])).rejects.toMatchObject({ code: '22012' });
    await expect(statements.query('select nope from probe where id = $1', [1])).rejects.toMatchObject({ code: '42703' });
    expect((await statements.query('select count(*)::int as n from probe where id > $1', [0])).rows).toEqual([{ n: 2 }]);
  });

  it('reports a closed database as PGlite does', async () => {
    const other = await PGlite.create();
    const statements = createPreparedStatements(other);
    await other.close();
    await expect(statements.query('select $1::int', [1])).rejects.toThrow('PGlite is closed');
  });

  it('hands the notifications of its answers to the listener', async () => {
    const heard: string[] = [];
    const statements = createPreparedStatements(pglite, undefined, (channel, payload) => heard.push(`${channel}:${payload}`));
    await pglite.exec('listen probe_channel');
    await statements.query('select pg_notify($1, $2)', ['probe_channel', 'hello']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(heard).toEqual(['probe_channel:hello']);
    await pglite.exec('unlisten probe_channel');
  });

  it('reads text with every kind of character and wide rows', async () => {
    const statements = createPreparedStatements(pglite);
    const text = `é ü 漢字 😀 ${'x'.repeat(100_000)}`;
    const { rows } = await statements.query('select $1::text as t, length($1::text) as n', [text]);
    expect(rows).toEqual([{ t: text, n: [...text].length }]);
  });

  it('takes part in the session transaction', async () => {
    const statements = createPreparedStatements(pglite);
    await pglite.exec('begin');
    await statements.query('insert into probe (id, name) values ($1, $2)', [3, 'three']);
    expect((await statements.query('select count(*)::int as n from probe where id >= $1', [1])).rows).toEqual([{ n: 3 }]);
    await pglite.exec('rollback');
    expect((await statements.query('select count(*)::int as n from probe where id >= $1', [1])).rows).toEqual([{ n: 2 }]);
  });
});
