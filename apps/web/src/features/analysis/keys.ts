import type { Query } from '../../lib/http-client.ts';

/** Query keys of camera health analysis: results, the verification queue and the statistics. */
export const analysisKeys = {
  all: ['analysis'] as const,
  results: (q: Query) => ['analysis', 'results', q] as const,
  queue: (after: number | null) => ['analysis', 'queue', after] as const,
  summary: (q: Query) => ['analysis', 'summary', q] as const,
  settings: (camId: number) => ['analysis', 'settings', camId] as const,
};
