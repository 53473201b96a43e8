import { describe, expect, it } from 'vitest';
import { byIndex, folderCrumbs, folderTargets, moveInList } from './directory-order.ts';

describe('dashboard folders and order', () => {
  it('moves an item one place and leaves the ends alone', () => {
    expect(moveInList(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveInList(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    const items = ['a', 'b'];
    expect(moveInList(items, 0, -1)).toBe(items);
    expect(moveInList(items, 1, 1)).toBe(items);
  });

  it('orders by index, then id', () => {
    expect(
      byIndex([
        { id: 3, index: 1 },
        { id: 1, index: 2 },
        { id: 2, index: 1 },
      ]).map((x) => x.id),
    ).toEqual([2, 3, 1]);
  });

  it('never offers a folder itself or one below it as a move target', () => {
    const folders = [
      { id: 1, parentId: null },
      { id: 2, parentId: 1 },
      { id: 3, parentId: 2 },
      { id: 4, parentId: null },
    ];
    expect(folderTargets(folders, 1).map((f) => f.id)).toEqual([4]);
    expect(folderTargets(folders, 3).map((f) => f.id)).toEqual([1, 2, 4]);
    expect(folderTargets(folders, null)).toHaveLength(4);
  });

  it('builds the breadcrumb of a folder path', () => {
    expect(
      folderCrumbs(
        [
          { id: 1, name: 'Plants' },
          { id: 5, name: 'North' },
        ],
        'Pumps',
      ),
    ).toEqual([{ label: 'Plants', to: '/folder/1' }, { label: 'North', to: '/folder/5' }, { label: 'Pumps' }]);
    expect(
      folderCrumbs([
        { id: 1, name: 'Plants' },
        { id: 1, name: 'Plants' },
      ]),
    ).toEqual([{ label: 'Plants', to: '/folder/1' }]);
  });
});
