import type { TreeNode } from '@sitewatch/contracts/sites';
import { describe, expect, it } from 'vitest';
import { pathToSite, revealSite } from './reveal.ts';
import { levelNode, siteNode } from './tree-fixtures.ts';
import { initialTree, ROOT, type TreeAction, type TreeState, treeReducer, visibleRows } from './tree-model.ts';

const level = (path: string[]) => levelNode(path);
const site = siteNode;

/** A server with two countries; the city Lyon holds sites 1..7 served 3 a page. */
function fakeServer() {
  const calls: string[] = [];
  const children: Record<string, TreeNode[]> = {
    [ROOT]: [level(['France']), level(['Spain'])],
    'level:["France"]': [level(['France', 'Auvergne'])],
    'level:["France","Auvergne"]': [level(['France', 'Auvergne', 'Lyon'])],
    'level:["France","Auvergne","Lyon"]': [1, 2, 3, 4, 5, 6, 7].map(site),
  };
  return {
    calls,
    async fetchChildren(key: string, _node: TreeNode, page: number) {
      calls.push(`${key}#${page}`);
      const all = children[key] ?? [];
      return { nodes: all.slice((page - 1) * 3, page * 3), total: all.length, siteCount: key === ROOT ? 7 : undefined };
    },
  };
}

function harness(start: TreeState = initialTree()) {
  let state = start;
  const server = fakeServer();
  const deps = {
    current: () => state,
    dispatch: (action: TreeAction) => {
      state = treeReducer(state, action);
    },
    fetchChildren: server.fetchChildren,
    cancelled: () => false,
  };
  return { deps, server, state: () => state };
}

describe('revealing a site in the tree', () => {
  it('names the keys from the root to the site', () => {
    expect(pathToSite(5, ['France', 'Auvergne'])).toEqual([ROOT, 'level:["France"]', 'level:["France","Auvergne"]', 'asset:5']);
    expect(pathToSite(5, [])).toEqual([ROOT, 'asset:5']);
  });

  it('loads and expands each address level, and pages through the city until the site is there', async () => {
    const h = harness();
    const key = await revealSite(7, ['France', 'Auvergne', 'Lyon'], h.deps);
    expect(key).toBe('asset:7');
    expect(h.server.calls).toEqual([
      'root#1',
      'level:["France"]#1',
      'level:["France","Auvergne"]#1',
      'level:["France","Auvergne","Lyon"]#1',
      'level:["France","Auvergne","Lyon"]#2',
      'level:["France","Auvergne","Lyon"]#3',
    ]);
    const rows = visibleRows(h.state()).map((r) => r.key);
    expect(rows).toContain('asset:7');
    expect(rows.indexOf('level:["France"]')).toBeLessThan(rows.indexOf('asset:7'));
    expect(rows.at(-1)).toBe('level:["Spain"]');
    expect(h.state().siteCount).toBe(7);
  });

  it('reuses what is loaded and only expands collapsed levels again', async () => {
    const h = harness();
    await revealSite(2, ['France', 'Auvergne', 'Lyon'], h.deps);
    h.deps.dispatch({ type: 'toggle', key: 'level:["France"]', expanded: false });
    h.server.calls.length = 0;
    expect(await revealSite(1, ['France', 'Auvergne', 'Lyon'], h.deps)).toBe('asset:1');
    expect(h.server.calls).toEqual([]);
    expect(h.state().nodes['level:["France"]']?.expanded).toBe(true);
  });

  it('gives up on a site the tree does not hold, and when cancelled', async () => {
    const h = harness();
    expect(await revealSite(99, ['France', 'Auvergne', 'Lyon'], h.deps)).toBeNull();
    expect(await revealSite(1, ['Italy'], h.deps)).toBeNull();
    const c = harness();
    expect(await revealSite(1, ['France', 'Auvergne', 'Lyon'], { ...c.deps, cancelled: () => true })).toBeNull();
  });
});
