import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createRowShaper } from './pg-rows.ts';

const result = (names: string[], rows: unknown[][]) =>
  ({ rows, fields: names.map((name) => ({ name }) as pg.FieldDef), command: 'SELECT', rowCount: rows.length }) as unknown as pg.QueryResult<
    unknown[]
  >;

describe('rows read as arrays', () => {
  it('become objects of the columns, in their order, the later of two same names winning', () => {
    const shape = createRowShaper();
    const out = shape(
      'q',
      result(
        ['id', 'name', 'id'],
        [
          [1, 'a', 3],
          [2, 'b', null],
        ],
      ),
    );
    expect(out.rows).toEqual([
      { id: 3, name: 'a' },
      { id: null, name: 'b' },
    ]);
    expect(Object.keys(out.rows[0] as object)).toEqual(['id', 'name']);
    expect(out.rowCount).toBe(2);
  });

  it('follow a statement whose columns changed, and never take a prototype from a column', () => {
    const shape = createRowShaper();
    expect(shape('q', result(['a'], [[1]])).rows).toEqual([{ a: 1 }]);
    expect(shape('q', result(['a', 'b'], [[1, 2]])).rows).toEqual([{ a: 1, b: 2 }]);
    const [row] = shape('p', result(['__proto__', '"quoted"\\n'], [[{ polluted: true }, 'x']])).rows;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect((row as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true });
    expect((row as Record<string, unknown>)['"quoted"\\n']).toBe('x');
  });

  it('leave an answer without rows as it is', () => {
    const shape = createRowShaper();
    const empty = result(['a'], []);
    expect(shape('q', empty)).toBe(empty);
    expect(shape('q', empty).rows).toEqual([]);
  });
});
