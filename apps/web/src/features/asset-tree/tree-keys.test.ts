import { describe, expect, it } from 'vitest';
import { treeKey } from './tree-keys.ts';
import type { Row } from './tree-model.ts';

const node = (key: string, depth: number, text: string, children = false, expanded = false): Row =>
  ({ kind: 'node', key, depth, state: { node: { text, children }, expanded } }) as unknown as Row;

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
});
