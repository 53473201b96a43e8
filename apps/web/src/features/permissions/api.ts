import type { GroupInput, PermissionGroup } from '@sitewatch/contracts/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';
import type { Page } from '../sites/api.ts';

/** Data hooks of /permissions/. */

export const permissionKeys = {
  catalogue: ['permissions', 'catalogue'] as const,
  groups: ['permissions', 'groups'] as const,
  members: (id: number) => ['permissions', 'members', id] as const,
};

export interface CatalogueEntry {
  codename: string;
  name: string;
  area: string;
}
export interface Member {
  id: number;
  username: string;
  firstname: string;
  lastname: string;
}

export const useCatalogue = () =>
  useQuery({ queryKey: permissionKeys.catalogue, queryFn: () => http.get<{ contents: CatalogueEntry[] }>('/iotapp/permissions/') });

export const usePermissionGroups = () =>
  useQuery({ queryKey: permissionKeys.groups, queryFn: () => http.get<Page<PermissionGroup>>('/iotapp/permission-groups/') });

export const useMembers = (id: number | null) =>
  useQuery({
    queryKey: permissionKeys.members(id ?? 0),
    enabled: id !== null,
    queryFn: () => http.get<Page<Member>>(`/iotapp/permission-groups/${id}/users/`),
  });

function useGroupMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: ['permissions'] }), client.invalidateQueries({ queryKey: ['users'] })]),
  });
}

export const useSaveGroup = () =>
  useGroupMutation(({ id, input }: { id: number | null; input: GroupInput }) =>
    id === null
      ? http.post<PermissionGroup>('/iotapp/permission-groups/', input, { toast: false })
      : http.put<PermissionGroup>(`/iotapp/permission-groups/${id}/`, input, { toast: false }),
  );

export const useDeleteGroup = () => useGroupMutation((id: number) => http.del<null>(`/iotapp/permission-groups/${id}/`, { toast: false }));

export const useAssignGroup = () =>
  useGroupMutation(({ id, userIds }: { id: number; userIds: number[] }) =>
    http.post<{ assigned: number }>(`/iotapp/permission-groups/${id}/users/`, { userIds }, { toast: false }),
  );
