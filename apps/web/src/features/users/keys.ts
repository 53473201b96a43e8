import type { Query } from '../../lib/http-client.ts';

/** Query keys of user administration. */
export const userKeys = {
  all: ['users'] as const,
  list: (query: Query) => ['users', 'admin-list', query] as const,
  one: (id: number) => ['users', 'one', id] as const,
  details: (id: number) => ['users', 'details', id] as const,
  grantable: ['users', 'grantable'] as const,
  picker: (searchText: string) => ['users', 'picker', searchText] as const,
  formAssets: (id: number | null) => ['users', 'assets', 'form', id] as const,
  siteOptions: (searchText: string) => ['picker', '/iotapp/assets/', 'multi', searchText] as const,
  assignedTickets: (userId: number) => ['helpdesk', 'assigned-to', userId] as const,
};
