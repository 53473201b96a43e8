import type { Query } from '../../lib/http-client.ts';

/** Query keys of equipment. */
export const equipmentKeys = {
  all: ['equipment'] as const,
  list: (query: Query) => ['equipment', 'list', query] as const,
  one: (id: number) => ['equipment', 'one', id] as const,
  history: (id: number) => ['equipment', 'history', id] as const,
  overview: ['equipment', 'overview'] as const,
};
