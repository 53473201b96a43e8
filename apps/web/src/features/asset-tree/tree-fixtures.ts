import type { TreeNode } from '@sitewatch/contracts/sites';

/** Tree nodes as the server sends them, for the tree's unit tests. */
export const levelNode = (path: string[], extra: Partial<TreeNode> = {}): TreeNode => ({
  id: `level:${JSON.stringify(path)}`,
  text: path.at(-1) as string,
  nodeType: 'level',
  icon: 'level',
  iconColor: '#4F6F77',
  assetId: null,
  children: true,
  path,
  ...extra,
});

export const siteNode = (id: number): TreeNode => ({
  id: `asset:${id}`,
  text: `Site ${id}`,
  nodeType: 'asset',
  icon: 'site',
  iconColor: '#4F6F77',
  assetId: id,
  children: true,
});
