import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { activityLogKeys } from './keys.ts';

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
    queryKey: activityLogKeys.list(filters),
    enabled,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api.get('/iotapp/user-activity-logs/', {
        query: { ...filters, cursor: pageParam ?? undefined, limit: 50 },
        toast: false,
      }),
    getNextPageParam: (last) => last.nextCursor,
  });
