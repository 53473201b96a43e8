import type { Query } from '../../lib/http-client.ts';

/** Query keys of device commands. */
export const commandKeys = {
  all: ['commands'] as const,
  list: (query: Query) => ['commands', 'list', query] as const,
  bulks: (query: Query) => ['commands', 'bulks', query] as const,
  bulk: (id: number, query: Query) => ['commands', 'bulk', id, query] as const,
};
