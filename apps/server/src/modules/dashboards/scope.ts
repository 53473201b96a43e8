import type { RlsCondition } from '@sitewatch/contracts';

/**
 * Row-level scope of a widget query: the sites the viewer (or a link's creator) sees, narrowed by typed conditions.
 * Conditions only ever narrow: `eq`/`in` intersect, `not_in` removes; nothing here can add a row the base scope
 * lacks. Site conditions are resolved to explicit site ids before any widget runs.
 */

export type Value = string | number;
export interface ColumnFilter {
  /** Allowed values (null = no restriction). */
  only: Set<Value> | null;
  /** Excluded values. */
  not: Set<Value>;
}

export interface DataScope {
  tenantId: number;
  /** Visible sites; `all` = every site of the tenant and rows tied to no site. */
  sites: number[] | 'all';
  /** Filters by `dataset.column` (site filters are already folded into `sites`). */
  filters: Map<string, ColumnFilter>;
  /** Whether `sites` is narrowed by a link's site conditions (beyond the actor's own sites). */
  sitesConditioned: boolean;
  /** The viewer, or the link's creator: whose ticket visibility applies. */
  actor: { userId: number; tenantId: number; roles: string[]; permissions: ReadonlySet<string> };
  /** Whether the scope comes from a shared link (some widgets are refused there). */
  viaLink: boolean;
  /** Permissions of the viewer, or of the link's creator. */
  permissions: ReadonlySet<string>;
}

/** Conditions grouped by `dataset.column`. */
export function groupConditions(conditions: readonly RlsCondition[]): Map<string, ColumnFilter> {
  const out = new Map<string, ColumnFilter>();
  for (const c of conditions) {
    const key = `${c.dataset}.${c.column}`;
    const f = out.get(key) ?? { only: null, not: new Set<Value>() };
    if (c.operator === 'not_in') for (const v of c.values) f.not.add(v);
    else {
      const given = new Set<Value>(c.values);
      f.only = f.only === null ? given : new Set([...f.only].filter((v) => given.has(v)));
    }
    out.set(key, f);
  }
  return out;
}

/** Values a filter lets through out of a list (or the filter's own list when the widget sets none). */
export function allowed<T extends Value>(filter: ColumnFilter | undefined, wanted: readonly T[]): { only: T[] | null; not: T[] } {
  const not = filter ? ([...filter.not] as T[]) : [];
  const onlyFilter = filter?.only ? ([...filter.only] as T[]) : null;
  if (wanted.length === 0) return { only: onlyFilter, not };
  const only = onlyFilter === null ? [...wanted] : wanted.filter((w) => onlyFilter.includes(w));
  return { only, not };
}

/** Site ids a widget asks for, within the scope. */
export function sitesWithin(scope: DataScope, wanted: readonly number[]): number[] | 'all' {
  if (wanted.length === 0) return scope.sites;
  if (scope.sites === 'all') return [...wanted];
  const visible = new Set(scope.sites);
  return wanted.filter((id) => visible.has(id));
}
