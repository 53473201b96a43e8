import type { Query } from '../../lib/http-client.ts';

/** Query keys of telemetry and alarms, the only place they are spelled. */
export const telemetryKeys = {
  all: ['telemetry'] as const,
  latest: (id: number) => ['telemetry', 'latest', id] as const,
  chart: (id: number, q: { key: string; startTs: number; endTs: number; agg: string; interval?: number }) =>
    ['telemetry', 'chart', id, q] as const,
  chartsOf: (id: number) => ['telemetry', 'chart', id] as const,
  connection: (id: number) => ['telemetry', 'connection', id] as const,
  alarmsAll: ['alarms'] as const,
  alarms: (q: Query) => ['alarms', 'list', q] as const,
  rules: ['alarms', 'rules'] as const,
};
