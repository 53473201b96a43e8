import { describe, expect, it } from 'vitest';
import { levelNode, siteNode } from './tree-fixtures.ts';
import { deviceNode, initialTree, ROOT, selectionTarget, treeReducer, visibleRows } from './tree-model.ts';

const level = (text: string, path: string[]) => levelNode(path, { text, count: 3 });
const site = siteNode;

describe('tree model', () => {
  it('flattens expanded nodes and offers Load More while the server has more', () => {
    let s = treeReducer(initialTree(), {
      type: 'loaded',
      key: ROOT,
      page: 1,
      nodes: [level('India', ['India']), level('Kenya', ['Kenya'])],
      total: 2,
      siteCount: 5,
    });
    expect(visibleRows(s).map((r) => r.key)).toEqual(['level:["India"]', 'level:["Kenya"]']);
    s = treeReducer(s, { type: 'loaded', key: 'level:["India"]', page: 1, nodes: [site(1), site(2)], total: 3 });
    const rows = visibleRows(s);
    expect(rows.map((r) => r.kind)).toEqual(['node', 'node', 'node', 'loadMore', 'node']);
    expect(rows[1]).toMatchObject({ key: 'asset:1', depth: 1 });
    s = treeReducer(s, { type: 'loaded', key: 'level:["India"]', page: 2, nodes: [site(3)], total: 3 });
    expect(visibleRows(s).filter((r) => r.kind === 'loadMore')).toEqual([]);
    s = treeReducer(s, { type: 'toggle', key: 'level:["India"]' });
    expect(visibleRows(s)).toHaveLength(2);
    expect(s.siteCount).toBe(5);
  });

  it('shows a loading row until the first page arrives and repaints devices by alarm status', () => {
    let s = treeReducer(initialTree(), {
      type: 'loaded',
      key: ROOT,
      page: 1,
      nodes: [
        deviceNode({
          id: 7,
          name: 'A:R',
          label: 'R',
          type: 'ROUTER',
          status: 'Online',
          alarmStatus: null,
          alarmUpdatedAt: null,
          assetId: 1,
          parentId: null,
          isParent: true,
          hasChildren: true,
        }),
      ],
      total: 1,
    });
    s = treeReducer(s, { type: 'toggle', key: 'device:7', expanded: true });
    s = treeReducer(s, { type: 'loading', key: 'device:7' });
    expect(visibleRows(s).map((r) => r.kind)).toEqual(['node', 'loading']);
    s = treeReducer(s, { type: 'colours', devices: [{ id: 7, alarmStatus: 'CRITICAL', status: 'Offline' }] });
    expect(s.nodes['device:7']?.node).toMatchObject({ iconColor: '#c62828', status: 'Offline' });
  });

  it('keeps the screen when a node is chosen, and goes from a device view back to its dashboard', () => {
    const t = selectionTarget('/genset/dashboard', level('Karnataka', ['India', 'Karnataka']));
    expect(t.pathname).toBe('/genset/dashboard');
    expect(t.search.getAll('path')).toEqual(['India', 'Karnataka']);
    expect(selectionTarget('/ups/view/3/9', site(4))).toMatchObject({ pathname: '/ups/dashboard' });
    expect(selectionTarget('/site-summary/power-dashboard/3', site(4)).pathname).toBe('/site-summary/power-dashboard/4');
  });
});
