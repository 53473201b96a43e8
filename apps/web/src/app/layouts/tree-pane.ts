import type { ComponentType } from 'react';

/**
 * The content of the device-tree pane (SPEC 2.4, 2.13). The asset-tree feature sets this, e.g.
 * `() => import('../../features/asset-tree/AssetTree.tsx').then((m) => m.AssetTree)`; until then the
 * device-tree layout shows its pages without a pane rather than a placeholder.
 */
export const TREE_PANE: (() => Promise<ComponentType>) | null = () =>
  import('../../features/asset-tree/AssetTree.tsx').then((m) => m.AssetTree);
