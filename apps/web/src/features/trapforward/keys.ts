/** Query keys of trap forwarding. */
export const trapforwardKeys = {
  all: ['trapforward'] as const,
  destinations: (page: number) => ['trapforward', 'destinations', page] as const,
  allDestinations: ['trapforward', 'destinations', 'all'] as const,
  filters: (page: number) => ['trapforward', 'filters', page] as const,
  mappings: ['trapforward', 'mappings'] as const,
  unmatched: (page: number, reason: string, search: string) => ['trapforward', 'unmatched', page, reason, search] as const,
  stats: ['trapforward', 'stats'] as const,
  receiving: ['trapforward', 'receiving'] as const,
};
