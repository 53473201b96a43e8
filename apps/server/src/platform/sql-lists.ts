import { type Expression, type SqlBool, sql } from 'kysely';

/** Typed list filters as bound parameters: what a dashboard widget or a row-level condition allows of a column. */

export type ListValue = string | number;
/** Allowed values (null = any) and excluded values of one column. */
export interface ValueFilter {
  only: ListValue[] | null;
  not: ListValue[];
}
export const ANY: ValueFilter = { only: null, not: [] };

export const inList = (column: string, values: readonly ListValue[]): Expression<SqlBool> =>
  values.length === 0 ? sql<boolean>`false` : sql<boolean>`${sql.ref(column)} in (${sql.join(values.map((v) => sql`${v}`))})`;

export const notInList = (column: string, values: readonly ListValue[]): Expression<SqlBool> =>
  values.length === 0 ? sql<boolean>`true` : sql<boolean>`${sql.ref(column)} not in (${sql.join(values.map((v) => sql`${v}`))})`;

export const allOf = (parts: Expression<SqlBool>[]): Expression<SqlBool> =>
  parts.length === 0 ? sql<boolean>`true` : sql<boolean>`${sql.join(parts, sql` and `)}`;

/** The conditions of a filter on a column. */
export function matching(column: string, f: ValueFilter): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (f.only !== null) out.push(inList(column, f.only));
  if (f.not.length) out.push(notInList(column, f.not));
  return out;
}

/** A site id column within the visible sites (`all`: no condition). */
export const withinSites = (column: string, sites: number[] | 'all'): Expression<SqlBool> =>
  sites === 'all' ? sql<boolean>`true` : inList(column, sites);

export interface TimeRange {
  start: Date;
  end: Date;
}
export const withinRange = (column: string, range: TimeRange | null): Expression<SqlBool> =>
  range
    ? sql<boolean>`${sql.ref(column)} >= ${range.start.toISOString()}::timestamptz and ${sql.ref(column)} < ${range.end.toISOString()}::timestamptz`
    : sql<boolean>`true`;
