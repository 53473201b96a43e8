import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { VirtualRows } from './AssetTree.tsx';
import { levelNode, siteNode } from './tree-fixtures.ts';
import { initialTree, ROOT, type TreeState, treeReducer, visibleRows } from './tree-model.ts';

/** The tree's markup without the styles MUI writes beside it. */
const render = (state: TreeState) =>
  renderToStaticMarkup(
    <VirtualRows
      rows={visibleRows(state)}
      selectedKey={null}
      reveal={null}
      onToggle={() => undefined}
      onSelect={() => undefined}
      onMore={() => undefined}
      onContextMenu={() => undefined}
    />,
  ).replace(/<style[^>]*>.*?<\/style>/g, '');
/** What assistive technology sees of the markup (the one element hidden in the tree holds no element of its kind). */
const accessible = (html: string) => html.replace(/<div [^>]*aria-hidden="true"[^>]*>.*?<\/div>/g, '');

const loaded = treeReducer(initialTree(), { type: 'loaded', key: ROOT, page: 1, nodes: [levelNode(['India'])], total: 1 });
const india = 'level:["India"]';

describe('asset tree', () => {
  it('owns tree items only while a level loads: it is busy and its ring is drawn for the eye alone', () => {
    // a level opened before its children arrive (as the reveal of a site chosen elsewhere does)
    const state = treeReducer(treeReducer(loaded, { type: 'toggle', key: india, expanded: true }), { type: 'loading', key: india });
    expect(visibleRows(state).map((r) => r.kind)).toEqual(['node', 'loading']);
    const html = render(state);
    expect(html).toMatch(/^<div[^>]*role="tree"[^>]*aria-busy="true"/);
    expect(html).toContain('data-testid="tree-row-loading"');
    expect(html).toMatch(/<div [^>]*aria-hidden="true" data-testid="tree-row-loading"><span class="MuiCircularProgress-root/);
    // the only progress bar seen is the expanding item's toggle, inside its tree item
    const items = accessible(html).split('role="treeitem"');
    expect(items).toHaveLength(2);
    expect(items[0]).not.toContain('progressbar');
    expect(items[1]?.match(/role="progressbar"/g)).toHaveLength(1);
  });

  it('is not busy once its levels have loaded', () => {
    const state = treeReducer(loaded, { type: 'loaded', key: india, page: 1, nodes: [siteNode(1)], total: 2 });
    const html = render(state);
    expect(html).toMatch(/^<div[^>]*role="tree"[^>]*aria-busy="false"/);
    expect(html).not.toContain('progressbar');
    expect(html).toContain('Load More');
  });
});
