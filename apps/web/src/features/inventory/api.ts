import type { ItemInput, ItemUpdate, MovementInput, ReplacementInput, StoreInput } from '@sitewatch/contracts/inventory';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { inventoryKeys } from './keys.ts';
import { issueOrQueue } from './offline.ts';

/** Data hooks of the inventory (/iotapp/inventory/). A movement anywhere refreshes the open screens through push. */

realtime.invalidateOn('inventory', inventoryKeys.all);

export function useStores() {
  return useQuery({ queryKey: inventoryKeys.stores, queryFn: () => api.get('/iotapp/inventory/stores/', { query: { limit: 100 } }) });
}

export function useStock(query: Query) {
  return useQuery({
    queryKey: inventoryKeys.stock(query),
    queryFn: () => api.get('/iotapp/inventory/stock/', { query }),
    placeholderData: keepPreviousData,
  });
}

export function useItemOptions(search: string, enabled: boolean) {
  return useQuery({
    queryKey: inventoryKeys.items({ search }),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/iotapp/inventory/items/', { query: { search: search || undefined, limit: 20 }, toast: false }),
  });
}

export function useItem(id: number | null) {
  return useQuery({
    queryKey: inventoryKeys.item(id ?? 0),
    enabled: id !== null,
    queryFn: () => api.get('/iotapp/inventory/items/{id}/', { path: { id: id ?? 0 }, toast: false }),
    retry: false,
  });
}

export function useMovements(query: Query) {
  return useQuery({
    queryKey: inventoryKeys.movements(query),
    queryFn: () => api.get('/iotapp/inventory/movements/', { query }),
    placeholderData: keepPreviousData,
  });
}

export function useCategories() {
  return useQuery({ queryKey: inventoryKeys.categories, queryFn: () => api.get('/iotapp/inventory/categories/', { toast: false }) });
}

export function useStoreManagers(enabled: boolean) {
  return useQuery({
    queryKey: inventoryKeys.managers,
    enabled,
    queryFn: () => api.get('/iotapp/inventory/store-managers/', { toast: false }),
  });
}

export function useSiteOptions(searchText: string, enabled: boolean) {
  return useQuery({
    queryKey: inventoryKeys.sites(searchText),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () =>
      api.get('/iotapp/assets/', { query: { page: 1, limit: 15, orderBy: 'name', searchText: searchText || undefined }, toast: false }),
  });
}

export function useTicketOptions(search: string, enabled: boolean) {
  return useQuery({
    queryKey: inventoryKeys.tickets(search),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/helpdesk/tickets/', { query: { type: 'all', limit: 15, search: search || undefined }, toast: false }),
  });
}

/** Finds an item by its label's code (scanned or typed). */
export const findItemByCode = (code: string) => api.get('/iotapp/inventory/items/', { query: { code, limit: 1 }, toast: false });

function useInventoryMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: inventoryKeys.all }) });
}

export const useMove = () =>
  useInventoryMutation((input: MovementInput) => api.post('/iotapp/inventory/movements/', input, { toast: false }));
/** Issue to a ticket: sent now, or kept in the outbox without a connection (the lists are read again once sent). */
export function useIssue() {
  const client = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: (args: { input: MovementInput; what: { item: string; ticket: string } }) => issueOrQueue(args.input, args.what),
    onSuccess: (result) => {
      if (!result.queued) return client.invalidateQueries({ queryKey: inventoryKeys.all });
    },
  });
}
export const useReplace = () =>
  useInventoryMutation((input: ReplacementInput) => api.post('/iotapp/inventory/replacements/', input, { toast: false }));
export const useSaveStore = (id: number | null) =>
  useInventoryMutation((input: StoreInput) =>
    id === null
      ? api.post('/iotapp/inventory/stores/', input, { toast: false })
      : api.put('/iotapp/inventory/stores/{id}/', input, { path: { id }, toast: false }),
  );
export const useSaveItem = (id: number | null) =>
  useInventoryMutation((input: ItemInput | ItemUpdate) =>
    id === null
      ? api.post('/iotapp/inventory/items/', input as ItemInput, { toast: false })
      : api.put('/iotapp/inventory/items/{id}/', input, { path: { id }, toast: false }),
  );
export const useDeleteItem = () =>
  useInventoryMutation((id: number) => api.del('/iotapp/inventory/items/{id}/', { path: { id }, toast: false }));
export const useDeleteStore = () =>
  useInventoryMutation((id: number) => api.del('/iotapp/inventory/stores/{id}/', { path: { id }, toast: false }));
