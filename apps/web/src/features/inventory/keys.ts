import type { Query } from '../../lib/http-client.ts';

/** Query keys of the inventory of spares. */
export const inventoryKeys = {
  all: ['inventory'] as const,
  stores: ['inventory', 'stores'] as const,
  stock: (query: Query) => ['inventory', 'stock', query] as const,
  items: (query: Query) => ['inventory', 'items', query] as const,
  item: (id: number) => ['inventory', 'item', id] as const,
  movements: (query: Query) => ['inventory', 'movements', query] as const,
  categories: ['inventory', 'categories'] as const,
  managers: ['inventory', 'store-managers'] as const,
  sites: (searchText: string) => ['inventory', 'site-options', searchText] as const,
  tickets: (searchText: string) => ['inventory', 'ticket-options', searchText] as const,
};
