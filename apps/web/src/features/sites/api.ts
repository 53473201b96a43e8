import type { AssetInput, SiteCustomer } from '@sitewatch/contracts/sites';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf } from '../../lib/api.ts';
import { cachedById, entityCache, remember } from '../../lib/entity-cache.ts';
import type { Query } from '../../lib/http-client.ts';
import { siteKeys } from './keys.ts';

/** Data hooks of sites, customers and users' site assignments. */

export interface Page<T> {
  contents: T[];
  totalCount: number;
}

export const fetchAssets = async (query: Query) => {
  const page = await api.get('/iotapp/assets/', { query });
  remember('assets', page.contents);
  return page;
};

/** One site by id, from the asset cache when it is fresh enough (SPEC 9). */
export const assetQuery = (id: number) => ({
  queryKey: siteKeys.asset(id),
  staleTime: 30_000,
  ...cachedById('assets', id, () => api.get('/iotapp/assets/{id}/', { path: { id } })),
});

export function useAssets(query: Query, enabled = true) {
  return useQuery({ queryKey: siteKeys.assets(query), queryFn: () => fetchAssets(query), placeholderData: keepPreviousData, enabled });
}

export function useAsset(id: number | null, opts: { showRoles?: boolean } = {}) {
  const enabled = id !== null && id > 0;
  const byId = useQuery({ ...assetQuery(id ?? 0), enabled: enabled && !opts.showRoles });
  // With its roles the site is read as it is now (the view page), not from the cache.
  const withRoles = useQuery({
    queryKey: siteKeys.asset(id ?? 0, true),
    enabled: enabled && Boolean(opts.showRoles),
    queryFn: () => api.get('/iotapp/assets/{id}/', { path: { id: id ?? 0 }, query: { showRoles: 'true' } }),
  });
  return opts.showRoles ? withRoles : byId;
}

export function useSaveAsset(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AssetInput) =>
      id ? api.put('/iotapp/assets/{id}/', input, { path: { id }, toast: false }) : api.post('/iotapp/assets/', input, { toast: false }),
    onSuccess: (saved) => {
      entityCache('assets').set(saved.id, saved);
      return client.invalidateQueries({ queryKey: siteKeys.all });
    },
  });
}

export function useDeleteAsset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/iotapp/assets/{id}/', { path: { id } }),
    onSuccess: (_none, id) => {
      entityCache('assets').delete(id);
      return client.invalidateQueries({ queryKey: siteKeys.all });
    },
  });
}

export const fetchCustomers = (query: Query) => api.get('/iotapp/customers/', { query });

export function useCustomers(query: Query) {
  return useQuery({ queryKey: siteKeys.customers(query), queryFn: () => fetchCustomers(query), placeholderData: keepPreviousData });
}

export function useCustomer(id: number | null) {
  return useQuery({
    queryKey: siteKeys.customer(id ?? 0),
    enabled: Boolean(id),
    queryFn: () => api.get('/iotapp/customers/{id}/', { path: { id: id ?? 0 } }),
  });
}

export type CustomerValues = Pick<SiteCustomer, 'name' | 'email' | 'phone' | 'address' | 'city' | 'country'>;

export function useSaveCustomer(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CustomerValues) =>
      id
        ? api.put('/iotapp/customers/{id}/', input, { path: { id }, toast: false })
        : api.post('/iotapp/customers/', input, { toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all }),
  });
}

export function useDeleteCustomer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/iotapp/customers/{id}/', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all }),
  });
}

export interface IotCredentials {
  customerId: number;
  mqttUrl: string;
  httpUrl: string;
  provisionDeviceKey: string;
  provisionDeviceSecretSet: boolean;
  /** Only in the answer of a regeneration. */
  provisionDeviceSecret?: string;
  secretRotatedAt: string;
}

export function useCredentials(id: number) {
  return useQuery({ queryKey: siteKeys.credentials(id), queryFn: () => api.get('/iotapp/customers/{id}/iot-fw-cred/', { path: { id } }) });
}

/** A new random secret; the answer carries it this once (the cached credentials never keep it). */
export function useRotateSecret(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/iotapp/customers/{id}/iot-fw-cred/rotate/', undefined, { path: { id } }),
    onSuccess: ({ provisionDeviceSecret: _shownOnce, ...data }) => client.setQueryData(siteKeys.credentials(id), data),
  });
}

export function useSetCredentials(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { provisionDeviceKey?: string; provisionDeviceSecret?: string }) =>
      api.put('/iotapp/customers/{id}/iot-fw-cred/', input, { path: { id }, toast: false }),
    onSuccess: (data) => client.setQueryData(siteKeys.credentials(id), data),
  });
}

export const fetchUsers = (query: Query) => api.get('/iotapp/users/', { query });

export function useUsers(query: Query) {
  return useQuery({ queryKey: siteKeys.users(query), queryFn: () => fetchUsers(query), placeholderData: keepPreviousData });
}

export function useUserAssets(query: Query & { userId: number | null }) {
  return useQuery({
    queryKey: siteKeys.userAssets(query),
    enabled: Boolean(query.userId),
    placeholderData: keepPreviousData,
    ...cachedById('userAssets', JSON.stringify(query), () =>
      api.get('/iotapp/user-assets/', { query: { ...query, userId: query.userId ?? 0 } }),
    ),
  });
}

export function useAssignAssets() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: number; assetIds: number[]; address?: string[] }) =>
      api.post('/iotapp/user-assets/', input, { toast: false }),
    onSuccess: () => {
      entityCache('userAssets').clear();
      return client.invalidateQueries({ queryKey: siteKeys.usersAll });
    },
  });
}

export function useUnassignAssets() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { userId: number; assetIds: number[] }) => api.post('/iotapp/user-assets/remove/', input, { toast: false }),
    onSuccess: () => {
      entityCache('userAssets').clear();
      return client.invalidateQueries({ queryKey: siteKeys.usersAll });
    },
  });
}

export interface GroupPermissions {
  id: number;
  name: string;
  userCount: number;
  permissions: { codename: string; name: string }[];
}

export function useGroups() {
  return useQuery({ queryKey: siteKeys.groups, queryFn: () => api.get('/iotapp/groups/') });
}

export function useSaveDevicePermissions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { groupId: number } & BodyOf<'/iotapp/groups/{id}/device-permissions/', 'put'>) =>
      api.put('/iotapp/groups/{id}/device-permissions/', { codenames: input.codenames }, { path: { id: input.groupId }, toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.groups }),
  });
}
