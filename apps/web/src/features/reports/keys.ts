import type { Query } from '../../lib/http-client.ts';

/** Query keys of the reports and purchase requests. */
export const reportKeys = {
  all: ['reports'] as const,
  table: (path: string, query: Query) => ['reports', 'table', path, query] as const,
  schedules: (kind: string) => ['reports', 'schedules', kind] as const,
  requests: ['purchase-requests'] as const,
  request: (id: number) => ['purchase-requests', 'one', id] as const,
  requestList: (query: Query) => ['purchase-requests', 'list', query] as const,
  stores: ['reports', 'stores'] as const,
  items: (search: string) => ['reports', 'items', search] as const,
};
