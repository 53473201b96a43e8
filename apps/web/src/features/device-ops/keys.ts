import type { Query } from '../../lib/http-client.ts';

/** Query keys of the device operations screens. */
export const deviceOpsKeys = {
  all: ['device-ops'] as const,
  doors: (query: Query) => ['device-ops', 'doors', query] as const,
  events: (query: Query) => ['device-ops', 'events', query] as const,
  eventsAll: ['device-ops', 'events'] as const,
  routers: (query: Query) => ['device-ops', 'routers', query] as const,
  rtus: (query: Query) => ['device-ops', 'rtus', query] as const,
  rtuSite: (id: number) => ['device-ops', 'rtu-site', id] as const,
  targets: (query: Query) => ['device-ops', 'targets', query] as const,
  runs: (query: Query) => ['device-ops', 'runs', query] as const,
  runsAll: ['device-ops', 'runs'] as const,
  tickets: (search: string) => ['device-ops', 'tickets', search] as const,
};
