import type { Query } from '../../lib/http-client.ts';

/** Query keys of the field staff directories. */
export const fieldStaffKeys = {
  all: ['field-staff'] as const,
  list: (query: Query) => ['field-staff', 'list', query] as const,
  one: (id: number) => ['field-staff', 'one', id] as const,
  areas: (role: string) => ['field-staff', 'areas', role] as const,
  tickets: (id: number, scope: string, searchText: string) => ['field-staff', 'tickets', id, scope, searchText] as const,
};
