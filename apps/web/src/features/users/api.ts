import type { AdminUser, UserCreate, UserInput } from '@sitewatch/contracts/user-admin';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ResponseOf } from '../../lib/api.ts';
import type { Query } from '../../lib/http-client.ts';
import { userKeys } from './keys.ts';

/** Data hooks of user administration (SPEC 7 /iotapp/users/). */

/** The list answers full rows to those who administer users and name-only rows to pickers; the rows tell which. */
type UserListAnswer = ResponseOf<'/iotapp/users/', 'get'>;
const adminRowsOf = (page: UserListAnswer) => ({
  contents: page.contents.filter((row): row is AdminUser => 'email' in row),
  totalCount: page.totalCount,
});

export function useAdminUsers(query: Query) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: async () => adminRowsOf(await api.get('/iotapp/users/', { query })),
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(id: number | null) {
  return useQuery({
    queryKey: userKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: () => api.get('/iotapp/users/{id}/', { path: { id: id ?? 0 }, toast: false }),
    retry: false,
  });
}

export function useUserDetails(id: number, enabled = true) {
  return useQuery({
    queryKey: userKeys.details(id),
    enabled,
    queryFn: () => api.get('/iotapp/users/{id}/details/', { path: { id }, toast: false }),
    retry: false,
  });
}

export function useGrantable(enabled: boolean) {
  return useQuery({ queryKey: userKeys.grantable, enabled, queryFn: () => api.get('/iotapp/users/grantable/') });
}

function useUserMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }) });
}

export const useSaveUser = (id: number | null) =>
  useUserMutation((input: UserInput | UserCreate) =>
    id === null
      ? api.post('/iotapp/users/', input as UserCreate, { toast: false })
      : api.put('/iotapp/users/{id}/', input, { path: { id }, toast: false }),
  );

export const useSetActive = (id: number) =>
  useUserMutation((isActive: boolean) => api.put('/iotapp/users/{id}/active/', { isActive }, { path: { id }, toast: false }));

export const useDeleteUser = () => useUserMutation((id: number) => api.del('/iotapp/users/{id}/', { path: { id }, toast: false }));

export const useResetPassword = (id: number) =>
  useUserMutation((password: string) => api.post('/iotapp/users/{id}/reset-password/', { password }, { path: { id }, toast: false }));

export const useSendSetPassword = (id: number) =>
  useUserMutation(() => api.post('/iotapp/users/{id}/set-password-email/', undefined, { path: { id }, toast: false }));

export const useUploadAvatar = (id: number) =>
  useUserMutation((image: string) => api.put('/iotapp/users/{id}/avatar/', { image }, { path: { id }, toast: false }));

export const setPasswordWithToken = (token: string, password: string) =>
  api.post('/iotapp/users/set-password/', { token, password }, { toast: false });

/** The latest tickets assigned to the user that the caller may see (the helpdesk list, filtered by assignee). */
export const useAssignedTickets = (userId: number, enabled: boolean) =>
  useQuery({
    queryKey: userKeys.assignedTickets(userId),
    enabled,
    queryFn: () =>
      api.get('/helpdesk/tickets/', {
        query: { assignedTo: userId, limit: 10, orderBy: '-createdAt' },
        toast: false,
      }),
  });

/** Users CSV import: the preview of every row, then one chunk of rows created per call. */
export const previewUserImport = (fileName: string, content: string) =>
  api.post('/iotapp/users/import/preview/', { fileName, content }, { toast: false });
export const runUserImport = (fileName: string, content: string, from: number, count: number) =>
  api.post('/iotapp/users/import/', { fileName, content }, { query: { from, count }, toast: false });
