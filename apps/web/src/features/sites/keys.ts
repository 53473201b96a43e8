import type { Query } from '../../lib/http-client.ts';

/** Query keys of sites (assets), site customers, users and their site assignments, the tree, map and summaries. */
export const siteKeys = {
  all: ['sites'] as const,
  assets: (query: Query) => ['sites', 'assets', query] as const,
  asset: (id: number, roles = false) => ['sites', 'asset', id, roles] as const,
  tree: (path: readonly string[]) => ['sites', 'tree', path] as const,
  map: (parentDevice: string, filter: { path?: string[] }) => ['sites', 'map', parentDevice, filter] as const,
  summary: (query: Query) => ['sites', 'site-summary', query] as const,
  detailedSummary: (filter: Query, page: unknown) => ['sites', 'detailed-summary', filter, page] as const,
  picker: (kind: string, searchText: string, extra: Query) => ['sites', 'picker', kind, searchText, extra] as const,
  customers: (query: Query) => ['sites', 'customers', query] as const,
  customer: (id: number) => ['sites', 'customer', id] as const,
  credentials: (id: number) => ['sites', 'customer', id, 'credentials'] as const,
  usersAll: ['users'] as const,
  users: (query: Query) => ['users', 'list', query] as const,
  userAssets: (query: Query) => ['users', 'assets', query] as const,
  groups: ['users', 'groups'] as const,
};
