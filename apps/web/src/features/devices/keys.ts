import type { Query } from '../../lib/http-client.ts';

/** Query keys of devices, templates, mappings and alarm actions. */
export const deviceKeys = {
  all: ['devices'] as const,
  lists: ['devices', 'list'] as const,
  list: (query: Query) => ['devices', 'list', query] as const,
  compact: (query: Query) => ['devices', 'compact', query] as const,
  one: (id: number) => ['devices', 'one', id] as const,
  countsAll: ['devices', 'status-counts'] as const,
  counts: (query: Query) => ['devices', 'status-counts', query] as const,
  types: ['devices', 'types'] as const,
  actions: (id: number) => ['devices', 'actions', id] as const,
  templates: (query: Query) => ['devices', 'templates', query] as const,
  template: (id: number) => ['devices', 'template', id] as const,
  mappingsAll: ['devices', 'mappings'] as const,
  mappings: (query: Query) => ['devices', 'mappings', query] as const,
  dvrs: ['devices', 'dvr-list'] as const,
};
