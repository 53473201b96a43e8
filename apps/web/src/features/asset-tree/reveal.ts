import type { TreeNode } from '@sitewatch/contracts/sites';
import { ROOT, type TreeAction, type TreeState } from './tree-model.ts';

/** How many pages of a level are read at most to find a site in it (500 nodes a page). */
const MAX_PAGES = 40;

export interface RevealDeps {
  /** The tree as it is now (after the actions dispatched so far have been applied or not). */
  current(): TreeState;
  dispatch(action: TreeAction): void;
  fetchChildren(key: string, node: TreeNode, page: number): Promise<{ nodes: TreeNode[]; total: number; siteCount?: number }>;
  /** True once the reveal is no longer wanted (another site was chosen, the tree went away). */
  cancelled(): boolean;
}

/** The keys from the root down to a site: the root, one level per address part, then the site. */
export function pathToSite(assetId: number, address: readonly string[]): string[] {
  const keys = [ROOT];
  for (let i = 1; i <= address.length; i++) keys.push(`level:${JSON.stringify(address.slice(0, i))}`);
  keys.push(`asset:${assetId}`);
  return keys;
}

const levelNode = (path: string[]): TreeNode => ({
  id: `level:${JSON.stringify(path)}`,
  text: path.at(-1) ?? '',
  nodeType: 'level',
  icon: 'level',
  iconColor: '',
  assetId: null,
  children: true,
  path,
});

/**
 * Opens the tree down to a site chosen elsewhere (a dashboard, the map): each address level is loaded when it has
 * not been yet and expanded, and pages are read until the next node on the way is there. Actions are dispatched in
 * order, so a level's node exists in the reducer before its children arrive. Returns the site's key, or null when
 * the site is not in the tree (not visible to the user) or the reveal was cancelled.
 */
export async function revealSite(assetId: number, address: readonly string[], deps: RevealDeps): Promise<string | null> {
  const keys = pathToSite(assetId, address);
  for (let depth = 0; depth < keys.length - 1; depth++) {
    const key = keys[depth] as string;
    const next = keys[depth + 1] as string;
    const known = deps.current().nodes[key];
    let children = known?.children ? [...known.children] : null;
    let page = children ? (known?.page ?? 1) : 0;
    let total = known?.total ?? Number.POSITIVE_INFINITY;
    if (children && !known?.expanded) deps.dispatch({ type: 'toggle', key, expanded: true });
    const node = known?.node ?? levelNode(address.slice(0, depth) as string[]);
    while (!children?.includes(next)) {
      if (children && children.length >= total) return null;
      if (page >= MAX_PAGES) return null;
      page += 1;
      deps.dispatch({ type: 'loading', key });
      let result: Awaited<ReturnType<RevealDeps['fetchChildren']>>;
      try {
        result = await deps.fetchChildren(key, node, page);
      } catch {
        deps.dispatch({ type: 'failed', key });
        return null;
      }
      if (deps.cancelled()) return null;
      deps.dispatch({ type: 'loaded', key, page, ...result });
      const ids = result.nodes.map((n) => n.id);
      children = [...(children ?? []), ...ids.filter((id) => !children?.includes(id))];
      total = result.total;
      if (ids.length === 0) return null;
    }
  }
  return keys.at(-1) as string;
}
