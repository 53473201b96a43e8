import type { EquipmentInput } from '@sitewatch/contracts/equipment';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { equipmentKeys } from './keys.ts';

realtime.invalidateOn('equipment', equipmentKeys.all);

export const useEquipmentList = (query: Query, enabled = true) =>
  useQuery({
    queryKey: equipmentKeys.list(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/api/equipment/', { query, toast: false }),
  });

export const useEquipment = (id: number, enabled = true) =>
  useQuery({
    queryKey: equipmentKeys.one(id),
    enabled,
    retry: false,
    queryFn: () => api.get('/api/equipment/{id}/', { path: { id }, toast: false }),
  });

export const useEquipmentHistory = (id: number, enabled = true) =>
  useQuery({
    queryKey: equipmentKeys.history(id),
    enabled,
    queryFn: () => api.get('/api/equipment/{id}/history/', { path: { id }, toast: false }),
  });

export const useEquipmentOverview = (enabled = true) =>
  useQuery({ queryKey: equipmentKeys.overview, enabled, queryFn: () => api.get('/api/equipment/overview/', { toast: false }) });

function useEquipmentMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: equipmentKeys.all }) });
}

export const useSaveEquipment = (id: number | null) =>
  useEquipmentMutation((input: EquipmentInput) =>
    id === null
      ? api.post('/api/equipment/', input, { toast: false })
      : api.put('/api/equipment/{id}/', input, { path: { id }, toast: false }),
  );

export const useDeleteEquipment = () =>
  useEquipmentMutation((id: number) => api.del('/api/equipment/{id}/', { path: { id }, toast: false }));
