import { describe, expect, it } from 'vitest';
import { enterLoaded, treeKey } from './tree-keys.ts';
import type { Row } from './tree-model.ts';

const node = (key: string, depth: number, text: string, children = false, expanded = false, loading = false): Row =>
  ({ kind: 'node', key, depth, state: { node: { text, children }, expanded, loading } }) as unknown as Row;

const rows: Row[] = [
  node('india', 0, 'India', true, true),
  node('pune', 1, 'Pune', true, false),
  node('mumbai', 1, 'Mumbai', true, true),
  node('dvr', 2, 'DVR-01 · Mumbai Depot'),
  { kind: 'loading', key: 'spin', depth: 2 },
  { kind: 'loadMore', key: 'more', parent: 'mumbai', depth: 2, loading: false },
  node('delhi', 0, 'Delhi', true, false),
];

describe('asset tree keys', () => {
  it('moves with the arrows, Home and End, past rows still loading', () => {
    expect(treeKey(rows, 'india', 'ArrowDown')).toEqual({ kind: 'focus', key: 'pune' });
    expect(treeKey(rows, 'dvr', 'ArrowDown')).toEqual({ kind: 'focus', key: 'more' });
    expect(treeKey(rows, 'india', 'ArrowUp')).toEqual({ kind: 'focus', key: 'india' });
    expect(treeKey(rows, 'pune', 'End')).toEqual({ kind: 'focus', key: 'delhi' });
    expect(treeKey(rows, 'delhi', 'Home')).toEqual({ kind: 'focus', key: 'india' });
    expect(treeKey(rows, null, 'ArrowDown')).toEqual({ kind: 'focus', key: 'pune' });
  });

  it('opens with Right and enters the first child, closes with Left and goes up to the parent', () => {
    expect(treeKey(rows, 'pune', 'ArrowRight')).toEqual({ kind: 'expand', key: 'pune' });
    expect(treeKey(rows, 'mumbai', 'ArrowRight')).toEqual({ kind: 'focus', key: 'dvr' });
    expect(treeKey(rows, 'dvr', 'ArrowRight')).toBeNull();
    expect(treeKey(rows, 'mumbai', 'ArrowLeft')).toEqual({ kind: 'collapse', key: 'mumbai' });
    expect(treeKey(rows, 'dvr', 'ArrowLeft')).toEqual({ kind: 'focus', key: 'mumbai' });
    expect(treeKey(rows, 'pune', 'ArrowLeft')).toEqual({ kind: 'focus', key: 'india' });
  });

  it('selects with Enter and Space, and finds a row by its first letters', () => {
    expect(treeKey(rows, 'pune', 'Enter')).toEqual({ kind: 'activate', key: 'pune' });
    expect(treeKey(rows, 'pune', ' ')).toEqual({ kind: 'activate', key: 'pune' });
    expect(treeKey(rows, 'india', 'd', 'd')).toEqual({ kind: 'focus', key: 'dvr' });
    expect(treeKey(rows, 'dvr', 'd', 'd')).toEqual({ kind: 'focus', key: 'delhi' });
    expect(treeKey(rows, 'india', 'm', 'mu')).toEqual({ kind: 'focus', key: 'mumbai' });
    expect(treeKey(rows, 'india', 'x', 'x')).toBeNull();
  });

  it('enters a node whose children are loading once they arrive, and gives up when none do', () => {
    // opened before its children arrived (a site revealed from a dashboard): only the ring is drawn in their place
    const opening: Row[] = [
      node('india', 0, 'India', true, true, true),
      { kind: 'loading', key: 'india::loading', depth: 1 },
      node('kenya', 0, 'Kenya', true, false),
    ];
    expect(treeKey(opening, 'india', 'ArrowRight')).toEqual({ kind: 'enterWhenLoaded', key: 'india' });
    expect(enterLoaded(opening, 'india')).toBe('waiting');
    // being opened by Right, a second Right waits for the children instead of asking for them again
    const closedLoading: Row[] = [node('india', 0, 'India', true, false, true), node('kenya', 0, 'Kenya', true, false)];
    expect(treeKey(closedLoading, 'india', 'ArrowRight')).toEqual({ kind: 'enterWhenLoaded', key: 'india' });
    expect(enterLoaded(closedLoading, 'india')).toBe('waiting');
    // the children arrived: the first one
    const arrived: Row[] = [node('india', 0, 'India', true, true), node('pune', 1, 'Pune', true), node('kenya', 0, 'Kenya', true)];
    expect(enterLoaded(arrived, 'india')).toBe('pune');
    // a level still loading more pages has children to enter at once
    const more: Row[] = [node('india', 0, 'India', true, true, true), node('pune', 1, 'Pune', true)];
    expect(treeKey(more, 'india', 'ArrowRight')).toEqual({ kind: 'focus', key: 'pune' });
    // none came (an empty level, a failed load), or the node went away: nothing to enter
    expect(enterLoaded([node('india', 0, 'India', true, true), node('kenya', 0, 'Kenya', true)], 'india')).toBeNull();
    expect(enterLoaded([node('india', 0, 'India', true, false), node('kenya', 0, 'Kenya', true)], 'india')).toBeNull();
    expect(enterLoaded([node('kenya', 0, 'Kenya', true)], 'india')).toBeNull();
    // a closed node with nothing loading still opens
    expect(treeKey([node('kenya', 0, 'Kenya', true)], 'kenya', 'ArrowRight')).toEqual({ kind: 'expand', key: 'kenya' });
  });
});
