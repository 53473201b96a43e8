import type { VendorInput } from '@sitewatch/contracts/vendors';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { vendorKeys } from './keys.ts';

/** Data hooks of the vendors directory (/iotapp/vendors/). */

realtime.invalidateOn('vendor', vendorKeys.all);

export function useVendors(query: Query) {
  return useQuery({
    queryKey: vendorKeys.list(query),
    queryFn: () => api.get('/iotapp/vendors/', { query }),
    placeholderData: keepPreviousData,
  });
}

export function useVendor(id: number | null) {
  return useQuery({
    queryKey: vendorKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: () => api.get('/iotapp/vendors/{id}/', { path: { id: id ?? 0 }, toast: false }),
    retry: false,
  });
}

export function useVendorTickets(id: number, page: number) {
  return useQuery({
    queryKey: vendorKeys.tickets(id, page),
    queryFn: () => api.get('/iotapp/vendors/{id}/tickets/', { path: { id }, query: { page, limit: 10 }, toast: false }),
    placeholderData: keepPreviousData,
  });
}

/** The vendors serving a site, for the ticket view's picker. */
export function useVendorPicker(siteId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: vendorKeys.picker(siteId),
    enabled,
    queryFn: () =>
      api.get('/iotapp/vendors/', { query: { limit: 200, active: 'true', ...(siteId ? { site: siteId } : {}) }, toast: false }),
  });
}

export function useIssueTypeOptions() {
  return useQuery({
    queryKey: vendorKeys.issueTypes,
    queryFn: () => api.get('/helpdesk/issue-types/', { query: { page: 1, limit: 200 }, toast: false }),
  });
}

export function useVendorUserOptions(searchText: string, enabled: boolean) {
  return useQuery({
    queryKey: vendorKeys.vendorUsers(searchText),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/iotapp/users/', { query: { role: 'vendor', limit: 15, searchText: searchText || undefined }, toast: false }),
  });
}

function useVendorMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: vendorKeys.all }) });
}

export const useSaveVendor = (id: number | null) =>
  useVendorMutation((input: VendorInput) =>
    id === null
      ? api.post('/iotapp/vendors/', input, { toast: false })
      : api.put('/iotapp/vendors/{id}/', input, { path: { id }, toast: false }),
  );

export const useDeleteVendor = () => useVendorMutation((id: number) => api.del('/iotapp/vendors/{id}/', { path: { id } }));
