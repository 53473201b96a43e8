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
  | null;

/** The rows a person can stand on: nodes and "Load More" (not the spinners of rows still loading). */
export const focusable = (rows: readonly Row[]) => rows.filter((r) => r.kind !== 'loading');

export const rowText = (row: Row) => (row.kind === 'node' ? row.state.node.text : row.kind === 'loadMore' ? 'Load More' : '');

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
    case 'ArrowRight':
      if (row.kind !== 'node' || !row.state.node.children) return null;
      if (!row.state.expanded) return { kind: 'expand', key: row.key };
      return items[index + 1] && (items[index + 1] as Row).depth > row.depth ? at(index + 1) : null;
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
