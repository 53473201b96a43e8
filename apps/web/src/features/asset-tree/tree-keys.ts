import type { Row } from './tree-model.ts';

/**
 * The WAI-ARIA tree pattern's keys over the visible rows: one Tab stop (the active row), arrows to move, Right to
 * expand or enter, Left to collapse or go up, Home/End, Enter/Space to select, and type-ahead by the rows' text.
 */
export type TreeKeyAction =
  | { kind: 'focus'; key: string }
  | { kind: 'expand'; key: string }
  | { kind: 'collapse'; key: string }
  | { kind: 'activate'; key: string }
  /** Right on a node whose children are still on their way: enter the first of them once they are here. */
  | { kind: 'enterWhenLoaded'; key: string }
  | null;

/** The rows a person can stand on: nodes and "Load More" (not the spinners of rows still loading). */
export const focusable = (rows: readonly Row[]) => rows.filter((r) => r.kind !== 'loading');

export const rowText = (row: Row) => (row.kind === 'node' ? row.state.node.text : row.kind === 'loadMore' ? 'Load More' : '');

/** Whether the item after `index` is a child of the item at `index`. */
const firstChildAt = (items: readonly Row[], index: number) => (items[index + 1]?.depth ?? -1) > (items[index] as Row).depth;

/**
 * Where a Right pressed while `key`'s children were loading leads now: 'waiting' while they still load, the first
 * child's key once they are drawn, or null when there is none to enter (the load failed or found nothing, the node
 * was closed or is gone).
 */
export function enterLoaded(rows: readonly Row[], key: string): string | 'waiting' | null {
  const items = focusable(rows);
  const index = items.findIndex((r) => r.key === key);
  const row = items[index];
  if (row?.kind !== 'node') return null;
  if (row.state.expanded && firstChildAt(items, index)) return (items[index + 1] as Row).key;
  return row.state.loading ? 'waiting' : null;
}

export function treeKey(rows: readonly Row[], activeKey: string | null, key: string, typed = ''): TreeKeyAction {
  const items = focusable(rows);
  if (!items.length) return null;
  const index = Math.max(
    0,
    items.findIndex((r) => r.key === activeKey),
  );
  const row = items[index] as Row;
  const at = (i: number) => ({ kind: 'focus', key: (items[Math.min(items.length - 1, Math.max(0, i))] as Row).key }) as const;
  switch (key) {
    case 'ArrowDown':
      return at(index + 1);
    case 'ArrowUp':
      return at(index - 1);
    case 'Home':
      return at(0);
    case 'End':
      return at(items.length - 1);
    case 'ArrowRight': {
      if (row.kind !== 'node' || !row.state.node.children) return null;
      if (row.state.expanded && firstChildAt(items, index)) return at(index + 1);
      // open, or being opened, with no child drawn yet: the children are loading, and Right enters them when they arrive
      if (row.state.loading) return { kind: 'enterWhenLoaded', key: row.key };
      if (!row.state.expanded) return { kind: 'expand', key: row.key };
      return null;
    }
    case 'ArrowLeft': {
      if (row.kind === 'node' && row.state.node.children && row.state.expanded) return { kind: 'collapse', key: row.key };
      for (let i = index - 1; i >= 0; i--) if ((items[i] as Row).depth < row.depth) return at(i);
      return null;
    }
    case 'Enter':
    case ' ':
      return { kind: 'activate', key: row.key };
    default: {
      if (!typed) return null;
      const needle = typed.toLowerCase();
      for (let step = 1; step <= items.length; step++) {
        const candidate = items[(index + step) % items.length] as Row;
        if (rowText(candidate).toLowerCase().startsWith(needle)) return { kind: 'focus', key: candidate.key };
      }
      return null;
    }
  }
}
