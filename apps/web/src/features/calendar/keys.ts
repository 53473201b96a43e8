import type { Query } from '../../lib/http-client.ts';

/** Query keys of the calendar. */
export const calendarKeys = {
  all: ['calendar'] as const,
  items: (query: Query) => ['calendar', 'items', query] as const,
  one: (id: number) => ['calendar', 'event', id] as const,
  options: ['calendar', 'options'] as const,
  users: (searchText: string) => ['calendar', 'users', searchText] as const,
  deviceWindow: (deviceId: number) => ['calendar', 'device-window', deviceId] as const,
};
