import type pg from 'pg';

type Row = Record<string, unknown>;
export type RowBuilder = (values: unknown[]) => Row;

/** Column lists remembered at most; the memory starts over past it. */
const MAX_SHAPES = 2_000;

/**
 * Turns pg's rows read as arrays (`rowMode: 'array'`) into objects keyed by column name, as pg itself would give
 * them, through one object literal per column list, compiled once.
 *
 * pg builds each row by copying an empty row of the columns and then setting every column by its name: a
 * dictionary copy and a megamorphic store per column. For a page of tickets (10 rows of 37 columns) that was about a
 * tenth of the server's time on the list. A literal of fixed keys makes every row of a statement one shape, built
 * in one step. As with pg, a name that comes twice keeps the later column's value.
 */
export function createRowShaper() {
  /** Per statement text: the column names its rows were built with last, and the builder. */
  const shapes = new Map<string, { names: string[]; build: RowBuilder }>();

  function builderFor(text: string, fields: readonly pg.FieldDef[]): RowBuilder {
    const known = shapes.get(text);
    if (known && sameNames(known.names, fields)) return known.build;
    const names = fields.map((f) => f.name);
    const build = compileRowBuilder(names);
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(text, { names, build });
    return build;
  }

  /** The result with its array rows replaced by objects. */
  return function shape(text: string, result: pg.QueryResult<unknown[]>): pg.QueryResult<Row> {
    const arrays = result.rows;
    const objects = result as unknown as pg.QueryResult<Row>;
    if (arrays.length === 0) return objects;
    const build = builderFor(text, result.fields);
    const rows: Row[] = new Array(arrays.length);
    for (let i = 0; i < arrays.length; i++) rows[i] = build(arrays[i] as unknown[]);
    objects.rows = rows;
    return objects;
  };
}

function sameNames(names: readonly string[], fields: readonly pg.FieldDef[]) {
  if (names.length !== fields.length) return false;
  for (let i = 0; i < names.length; i++) if (names[i] !== fields[i]?.name) return false;
  return true;
}

/**
 * `(v) => ({ "id": v[0], "title": v[1], … })`: a row of these columns from their values in order. A `__proto__`
 * column is written as a computed key, an own property, never the row's prototype.
 */
export function compileRowBuilder(names: readonly string[]): RowBuilder {
  const entries = names.map((name, i) => {
    const key = JSON.stringify(name);
    return `${name === '__proto__' ? `[${key}]` : key}: v[${i}]`;
  });
  return new Function('v', `return { ${entries.join(', ')} };`) as RowBuilder;
}
