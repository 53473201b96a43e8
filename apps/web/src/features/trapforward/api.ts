import type {
  TrapDestination,
  TrapDestinationInput,
  TrapFilter,
  TrapFilterInput,
  TrapMapping,
  TrapMappingInput,
  TrapReceiving,
  TrapReceivingInput,
  TrapStats,
  UnmatchedTrap,
} from '@sitewatch/contracts/snmp';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';
import { trapforwardKeys } from './keys.ts';

const BASE = '/api/trapforward';
const quiet = { toast: false } as const;
type List<T> = { contents: T[]; totalCount: number };

/** Counters move while traps flow: lists refresh when the tab regains focus (and with the pages' Refresh button). */
const live = { refetchOnWindowFocus: 'always' } as const;

export const PAGE_SIZE = 20;

export const useDestinations = (page: number, enabled = true) =>
  useQuery({
    queryKey: trapforwardKeys.destinations(page),
    enabled,
    placeholderData: keepPreviousData,
    ...live,
    queryFn: () => http.get<List<TrapDestination>>(`${BASE}/destinations/`, { query: { page, limit: PAGE_SIZE }, ...quiet }),
  });

/** Every destination (the filter form's choices). */
export const useAllDestinations = (enabled = true) =>
  useQuery({
    queryKey: trapforwardKeys.allDestinations,
    enabled,
    queryFn: () => http.get<List<TrapDestination>>(`${BASE}/destinations/`, { query: { page: 1, limit: 200 }, ...quiet }),
  });

export const useFilters = (page: number, enabled = true) =>
  useQuery({
    queryKey: trapforwardKeys.filters(page),
    enabled,
    placeholderData: keepPreviousData,
    ...live,
    queryFn: () => http.get<List<TrapFilter>>(`${BASE}/filters/`, { query: { page, limit: PAGE_SIZE }, ...quiet }),
  });

export const useMappings = (enabled = true) =>
  useQuery({ queryKey: trapforwardKeys.mappings, enabled, queryFn: () => http.get<List<TrapMapping>>(`${BASE}/mappings/`, quiet) });

export const useUnmatched = (page: number, reason: '' | 'no-mapping' | 'unknown-source', search = '', enabled = true) =>
  useQuery({
    queryKey: trapforwardKeys.unmatched(page, reason, search),
    enabled,
    placeholderData: keepPreviousData,
    ...live,
    queryFn: () =>
      http.get<List<UnmatchedTrap>>(`${BASE}/unmatched/`, {
        query: { page, limit: PAGE_SIZE, ...(reason ? { reason } : {}), ...(search ? { search } : {}) },
        ...quiet,
      }),
  });

export const useTrapStats = (enabled = true) =>
  useQuery({ queryKey: trapforwardKeys.stats, enabled, ...live, queryFn: () => http.get<TrapStats>(`${BASE}/stats/`, quiet) });

function useTrapMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: trapforwardKeys.all }) });
}

export const useSaveDestination = (id: number | null) =>
  useTrapMutation((input: TrapDestinationInput) =>
    id === null
      ? http.post<TrapDestination>(`${BASE}/destinations/`, input, quiet)
      : http.put<TrapDestination>(`${BASE}/destinations/${id}/`, input, quiet),
  );
export const useDeleteDestination = () => useTrapMutation((id: number) => http.del<null>(`${BASE}/destinations/${id}/`, quiet));

export const useSaveFilter = (id: number | null) =>
  useTrapMutation((input: TrapFilterInput) =>
    id === null ? http.post<TrapFilter>(`${BASE}/filters/`, input, quiet) : http.put<TrapFilter>(`${BASE}/filters/${id}/`, input, quiet),
  );
export const useDeleteFilter = () => useTrapMutation((id: number) => http.del<null>(`${BASE}/filters/${id}/`, quiet));

export const useSaveMapping = (id: number | null) =>
  useTrapMutation((input: TrapMappingInput) =>
    id === null
      ? http.post<TrapMapping>(`${BASE}/mappings/`, input, quiet)
      : http.put<TrapMapping>(`${BASE}/mappings/${id}/`, input, quiet),
  );
export const useDeleteMapping = () => useTrapMutation((id: number) => http.del<null>(`${BASE}/mappings/${id}/`, quiet));

export const useReceiving = (enabled = true) =>
  useQuery({ queryKey: trapforwardKeys.receiving, enabled, queryFn: () => http.get<TrapReceiving>(`${BASE}/receiving/`, quiet) });
export const useSaveReceiving = () =>
  useTrapMutation((input: TrapReceivingInput) => http.put<TrapReceiving>(`${BASE}/receiving/`, input, quiet));
export const useRenewCommunity = () => useTrapMutation(() => http.post<TrapReceiving>(`${BASE}/receiving/community/`, {}, quiet));
