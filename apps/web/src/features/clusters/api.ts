import type { ClusterInput } from '@sitewatch/contracts/clusters';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { clusterKeys } from './keys.ts';

realtime.invalidateOn('cluster', clusterKeys.all);

/** Data hooks of the clusters (/iotapp/clusters/). */

export function useClusters(query: Query, enabled: boolean) {
  return useQuery({
    queryKey: clusterKeys.list(query),
    enabled,
    queryFn: () => api.get('/iotapp/clusters/', { query }),
    placeholderData: keepPreviousData,
  });
}

export function useCluster(id: number | null) {
  return useQuery({
    queryKey: clusterKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: () => api.get('/iotapp/clusters/{id}/', { path: { id: id ?? 0 }, toast: false }),
    retry: false,
  });
}

/** Active users of a lead role, by name (the users list answers names to pickers). */
export function useLeadOptions(role: 'citylead' | 'areahead' | 'regionalhead', searchText: string, enabled: boolean) {
  return useQuery({
    queryKey: clusterKeys.leads(role, searchText),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/iotapp/users/', { query: { role, limit: 20, page: 1, ...(searchText ? { searchText } : {}) }, toast: false }),
  });
}

function useClusterMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: clusterKeys.all }) });
}

export const useSaveCluster = (id: number | null) =>
  useClusterMutation((input: ClusterInput) =>
    id === null
      ? api.post('/iotapp/clusters/', input, { toast: false })
      : api.put('/iotapp/clusters/{id}/', input, { path: { id }, toast: false }),
  );

export const useDeleteCluster = () => useClusterMutation((id: number) => api.del('/iotapp/clusters/{id}/', { path: { id } }));
