import type { Query } from '../../lib/http-client.ts';

/** Query keys of attendance. */
export const attendanceKeys = {
  all: ['attendance'] as const,
  current: ['attendance', 'current'] as const,
  list: (query: Query) => ['attendance', 'list', query] as const,
  hours: (query: Query) => ['attendance', 'hours', query] as const,
  forTicket: (ticketId: number) => ['attendance', 'ticket', ticketId] as const,
};
