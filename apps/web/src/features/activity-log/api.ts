import type { ActivityLogEntry } from '@sitewatch/contracts/user-admin';
import { useInfiniteQuery } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';

export interface ActivityFilters {
  userId?: number;
  action?: string;
  objectType?: string;
  from?: string;
  to?: string;
}

/** Pages of the activity log, newest first, loaded on demand (keyset cursor). */
export const useActivityLog = (filters: ActivityFilters, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: ['activity-log', filters],
    enabled,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      http.get<{ contents: ActivityLogEntry[]; nextCursor: string | null }>('/iotapp/user-activity-logs/', {
        query: { ...filters, cursor: pageParam ?? undefined, limit: 50 },
        toast: false,
      }),
    getNextPageParam: (last) => last.nextCursor,
  });
