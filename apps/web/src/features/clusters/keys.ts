import type { Query } from '../../lib/http-client.ts';

/** Query keys of the clusters. */
export const clusterKeys = {
  all: ['clusters'] as const,
  list: (query: Query) => ['clusters', 'list', query] as const,
  one: (id: number) => ['clusters', 'one', id] as const,
  leads: (role: string, searchText: string) => ['clusters', 'leads', role, searchText] as const,
};
