import type { GroupInput } from '@sitewatch/contracts/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ResponseOf } from '../../lib/api.ts';
import { userKeys } from '../users/keys.ts';
import { permissionKeys } from './keys.ts';

/** Data hooks of /permissions/. */

export type CatalogueEntry = ResponseOf<'/iotapp/permissions/', 'get'>['contents'][number];
export type Member = ResponseOf<'/iotapp/permission-groups/{id}/users/', 'get'>['contents'][number];

export const useCatalogue = () => useQuery({ queryKey: permissionKeys.catalogue, queryFn: () => api.get('/iotapp/permissions/') });

export const usePermissionGroups = () =>
  useQuery({ queryKey: permissionKeys.groups, queryFn: () => api.get('/iotapp/permission-groups/') });

export const useMembers = (id: number | null) =>
  useQuery({
    queryKey: permissionKeys.members(id ?? 0),
    enabled: id !== null,
    queryFn: () => api.get('/iotapp/permission-groups/{id}/users/', { path: { id: id ?? 0 } }),
  });

function useGroupMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: permissionKeys.all }), client.invalidateQueries({ queryKey: userKeys.all })]),
  });
}

export const useSaveGroup = () =>
  useGroupMutation(({ id, input }: { id: number | null; input: GroupInput }) =>
    id === null
      ? api.post('/iotapp/permission-groups/', input, { toast: false })
      : api.put('/iotapp/permission-groups/{id}/', input, { path: { id }, toast: false }),
  );

export const useDeleteGroup = () =>
  useGroupMutation((id: number) => api.del('/iotapp/permission-groups/{id}/', { path: { id }, toast: false }));

export const useAssignGroup = () =>
  useGroupMutation(({ id, userIds }: { id: number; userIds: number[] }) =>
    api.post('/iotapp/permission-groups/{id}/users/', { userIds }, { path: { id }, toast: false }),
  );
