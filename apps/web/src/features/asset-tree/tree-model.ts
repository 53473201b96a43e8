import { alarmColour, type CompactDevice } from '@sitewatch/contracts/devices';
import type { TreeNode } from '@sitewatch/contracts/sites';

/**
 * The state of the asset tree as a pure reducer: which nodes are loaded, expanded and how many children each one
 * has on the server. The browser holds only what a person opened; `visibleRows` flattens it for the virtual list.
 */

export const ROOT = 'root';

export interface NodeState {
  node: TreeNode;
  expanded: boolean;
  loading: boolean;
  /** Keys of the loaded children, in order. */
  children?: string[];
  /** Children on the server. */
  total?: number;
  /** Pages loaded so far. */
  page: number;
  failed?: boolean;
}

export interface TreeState {
  nodes: Record<string, NodeState>;
  /** Sites visible under the root (the footer count). */
  siteCount: number;
}

export type Row =
  | { kind: 'node'; key: string; depth: number; state: NodeState }
  | { kind: 'loadMore'; key: string; parent: string; depth: number; loading: boolean }
  | { kind: 'loading'; key: string; depth: number };

const rootNode: TreeNode = {
  id: ROOT,
  text: '',
  nodeType: 'level',
  icon: 'level',
  iconColor: alarmColour(null),
  assetId: null,
  children: true,
  path: [],
};

export const initialTree = (): TreeState => ({
  nodes: { [ROOT]: { node: rootNode, expanded: true, loading: false, page: 0 } },
  siteCount: 0,
});

export type TreeAction =
  | { type: 'loading'; key: string }
  | { type: 'loaded'; key: string; page: number; nodes: TreeNode[]; total: number; siteCount?: number }
  | { type: 'failed'; key: string }
  | { type: 'toggle'; key: string; expanded?: boolean }
  | { type: 'reset'; nodes?: TreeNode[]; siteCount?: number }
  | { type: 'colours'; devices: Pick<CompactDevice, 'id' | 'alarmStatus' | 'status'>[] }
  | { type: 'siteColours'; sites: TreeNode[] };

export function treeReducer(state: TreeState, action: TreeAction): TreeState {
  switch (action.type) {
    case 'loading': {
      const current = state.nodes[action.key];
      if (!current) return state;
      return { ...state, nodes: { ...state.nodes, [action.key]: { ...current, loading: true, failed: false } } };
    }
    case 'loaded': {
      const current = state.nodes[action.key];
      if (!current) return state;
      const nodes = { ...state.nodes };
      const keys: string[] = [];
      for (const node of action.nodes) {
        keys.push(node.id);
        const existing = nodes[node.id];
        nodes[node.id] = existing ? { ...existing, node } : { node, expanded: false, loading: false, page: 0 };
      }
      const previous = action.page > 1 ? (current.children ?? []) : [];
      nodes[action.key] = {
        ...current,
        loading: false,
        expanded: true,
        page: action.page,
        total: action.total,
        children: [...previous, ...keys.filter((k) => !previous.includes(k))],
      };
      return { nodes, siteCount: action.siteCount ?? state.siteCount };
    }
    case 'failed': {
      const current = state.nodes[action.key];
      if (!current) return state;
      return { ...state, nodes: { ...state.nodes, [action.key]: { ...current, loading: false, failed: true } } };
    }
    case 'toggle': {
      const current = state.nodes[action.key];
      if (!current) return state;
      return { ...state, nodes: { ...state.nodes, [action.key]: { ...current, expanded: action.expanded ?? !current.expanded } } };
    }
    case 'reset': {
      const fresh = initialTree();
      if (!action.nodes) return fresh;
      return treeReducer(fresh, {
        type: 'loaded',
        key: ROOT,
        page: 1,
        nodes: action.nodes,
        total: action.nodes.length,
        siteCount: action.siteCount,
      });
    }
    case 'colours': {
      let nodes = state.nodes;
      for (const d of action.devices) {
        const current = nodes[`device:${d.id}`];
        if (!current) continue;
        if (nodes === state.nodes) nodes = { ...state.nodes };
        nodes[`device:${d.id}`] = {
          ...current,
          node: { ...current.node, alarmStatus: d.alarmStatus, status: d.status, iconColor: alarmColour(d.alarmStatus) },
        };
      }
      return nodes === state.nodes ? state : { ...state, nodes };
    }
    case 'siteColours': {
      let nodes = state.nodes;
      for (const site of action.sites) {
        const current = nodes[site.id];
        if (!current || current.node.iconColor === site.iconColor) continue;
        if (nodes === state.nodes) nodes = { ...state.nodes };
        nodes[site.id] = { ...current, node: { ...current.node, iconColor: site.iconColor, alarmStatus: site.alarmStatus } };
      }
      return nodes === state.nodes ? state : { ...state, nodes };
    }
  }
}

/** The rows a person sees: expanded nodes' children, a 'Load More' row where the server has more. */
export function visibleRows(state: TreeState, rootKey: string = ROOT): Row[] {
  const rows: Row[] = [];
  const walk = (key: string, depth: number) => {
    const current = state.nodes[key];
    if (!current?.expanded) return;
    for (const child of current.children ?? []) {
      const childState = state.nodes[child];
      if (!childState) continue;
      rows.push({ kind: 'node', key: child, depth, state: childState });
      walk(child, depth + 1);
    }
    const loaded = current.children?.length ?? 0;
    if (current.loading && loaded === 0) rows.push({ kind: 'loading', key: `${key}::loading`, depth });
    else if (current.total !== undefined && loaded < current.total) {
      rows.push({ kind: 'loadMore', key: `${key}::more`, parent: key, depth, loading: current.loading });
    }
  };
  walk(rootKey, 0);
  return rows;
}

/** A device of the compact list as a tree node. */
export function deviceNode(d: CompactDevice): TreeNode {
  return {
    id: `device:${d.id}`,
    text: d.label,
    nodeType: 'device',
    icon: d.type,
    iconColor: alarmColour(d.alarmStatus),
    assetId: d.assetId,
    children: Boolean(d.hasChildren),
    deviceId: d.id,
    deviceType: d.type,
    status: d.status,
    alarmStatus: d.alarmStatus,
    isParent: d.isParent,
  };
}

/** Where a click on a node leads from the current screen of the device-tree layout. */
export function selectionTarget(pathname: string, node: TreeNode): { pathname: string; search: URLSearchParams } {
  const search = new URLSearchParams();
  if (node.nodeType === 'level') for (const level of node.path ?? []) search.append('path', level);
  if (node.nodeType === 'asset' && node.assetId) search.set('assetId', String(node.assetId));
  if (node.nodeType === 'device' && node.deviceId) {
    if (node.assetId) search.set('assetId', String(node.assetId));
    search.set('deviceId', String(node.deviceId));
  }
  if (pathname.startsWith('/site-summary/power-dashboard/') && node.assetId) {
    return { pathname: `/site-summary/power-dashboard/${node.assetId}`, search: new URLSearchParams() };
  }
  const views: [RegExp, string][] = [
    [/^\/genset\/view\//, '/genset/dashboard'],
    [/^\/ups\/view\//, '/ups/dashboard'],
    [/^\/rectifier\/view\//, '/rectifier/dashboard'],
    [/^\/alarm-panel\/view\//, '/alarm-panel/dashboard'],
    [/^\/cctv\/view\//, '/cctv/dashboard'],
  ];
  const view = views.find(([pattern]) => pattern.test(pathname));
  return { pathname: view ? view[1] : pathname, search };
}
