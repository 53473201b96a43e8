import type { Query } from '../../lib/http-client.ts';

/** Query keys of the vendors directory. */
export const vendorKeys = {
  all: ['vendors'] as const,
  list: (query: Query) => ['vendors', 'list', query] as const,
  one: (id: number) => ['vendors', 'one', id] as const,
  tickets: (id: number, page: number) => ['vendors', 'tickets', id, page] as const,
  picker: (siteId: number | null) => ['vendors', 'picker', siteId] as const,
  issueTypes: ['vendors', 'issue-types'] as const,
  vendorUsers: (searchText: string) => ['vendors', 'vendor-users', searchText] as const,
};
