import { ASSET_TREE, type TreeNode } from '@sitewatch/contracts/sites';
import { api } from '../../lib/api.ts';
import { fetchCompact } from '../devices/api.ts';
import { deviceNode, ROOT } from './tree-model.ts';

/** One page of a node's children: address levels and sites from the tree call, devices from the compact list. */
export async function fetchChildren(
  key: string,
  node: TreeNode,
  page: number,
): Promise<{ nodes: TreeNode[]; total: number; siteCount?: number }> {
  if (key === ROOT || node.nodeType === 'level') {
    const res = await api.get('/iotapp/assets/tree/', {
      query: { path: key === ROOT ? [] : (node.path ?? []), page, limit: ASSET_TREE.apiLimit },
    });
    return { nodes: res.contents, total: res.totalCount, siteCount: key === ROOT ? res.siteCount : undefined };
  }
  if (node.nodeType === 'asset') {
    const res = await fetchCompact({
      assetId: node.assetId ?? undefined,
      parentId: 'null',
      checkChildExist: true,
      orderBy: 'label',
      page,
      limit: ASSET_TREE.devicesUnderAsset,
    });
    return { nodes: res.contents.map(deviceNode), total: res.totalCount };
  }
  const res = await fetchCompact({
    parentId: node.deviceId,
    checkChildExist: true,
    orderBy: 'label',
    page,
    limit: ASSET_TREE.childPageSize,
  });
  return { nodes: res.contents.map(deviceNode), total: res.totalCount };
}

export interface SearchResult {
  sites: TreeNode[];
  devices: (TreeNode & { siteName: string | null })[];
}

export const searchTree = (searchText: string) =>
  api.get('/iotapp/assets/tree/search/', { query: { searchText, limit: ASSET_TREE.searchLimit } });
