import type { Query } from '../../lib/http-client.ts';

/** Query keys of form templates, their versions, responses and drafts, and the site and device selects of a form. */
export const formKeys = {
  all: ['forms'] as const,
  list: (query: Query) => ['forms', 'list', query] as const,
  byName: (name: string) => ['forms', 'name', name] as const,
  byId: (id: number) => ['forms', 'id', id] as const,
  view: (view: string) => ['forms', 'view', view] as const,
  versions: (id: number) => ['forms', 'versions', id] as const,
  responses: (id: number, query: Query) => ['forms', 'responses', id, query] as const,
  response: (id: number, responseId: number) => ['forms', 'response', id, responseId] as const,
  draft: (id: number) => ['forms', 'draft', id] as const,
  select: (kind: 'asset' | 'device', search: string) => ['forms', 'select', kind, search] as const,
};
