import type { TicketSummary } from '@sitewatch/contracts/helpdesk/tickets';
import type { AdminUser, Grantable, UserCreate, UserDetails, UserInput } from '@sitewatch/contracts/user-admin';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, type RequestOptions } from '../../lib/http.ts';
import type { Page } from '../sites/api.ts';

/** Data hooks of user administration (SPEC 7 /iotapp/users/). */

type Query = NonNullable<RequestOptions['query']>;

export const userKeys = {
  all: ['users'] as const,
  list: (query: Query) => ['users', 'admin-list', query] as const,
  one: (id: number) => ['users', 'one', id] as const,
  details: (id: number) => ['users', 'details', id] as const,
  grantable: ['users', 'grantable'] as const,
};

export function useAdminUsers(query: Query) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: () => http.get<Page<AdminUser>>('/iotapp/users/', { query }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(id: number | null) {
  return useQuery({
    queryKey: userKeys.one(id ?? 0),
    enabled: id !== null,
    queryFn: () => http.get<AdminUser>(`/iotapp/users/${id}/`, { toast: false }),
    retry: false,
  });
}

export function useUserDetails(id: number, enabled = true) {
  return useQuery({
    queryKey: userKeys.details(id),
    enabled,
    queryFn: () => http.get<UserDetails>(`/iotapp/users/${id}/details/`, { toast: false }),
    retry: false,
  });
}

export function useGrantable(enabled: boolean) {
  return useQuery({ queryKey: userKeys.grantable, enabled, queryFn: () => http.get<Grantable>('/iotapp/users/grantable/') });
}

function useUserMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }) });
}

export const useSaveUser = (id: number | null) =>
  useUserMutation((input: UserInput | UserCreate) =>
    id === null
      ? http.post<AdminUser>('/iotapp/users/', input, { toast: false })
      : http.put<AdminUser>(`/iotapp/users/${id}/`, input, { toast: false }),
  );

export const useSetActive = (id: number) =>
  useUserMutation((isActive: boolean) => http.put<AdminUser>(`/iotapp/users/${id}/active/`, { isActive }, { toast: false }));

export const useDeleteUser = () => useUserMutation((id: number) => http.del<null>(`/iotapp/users/${id}/`, { toast: false }));

export const useResetPassword = (id: number) =>
  useUserMutation((password: string) =>
    http.post<{ message: string }>(`/iotapp/users/${id}/reset-password/`, { password }, { toast: false }),
  );

export const useSendSetPassword = (id: number) =>
  useUserMutation(() => http.post<{ message: string }>(`/iotapp/users/${id}/set-password-email/`, {}, { toast: false }));

export const useUploadAvatar = (id: number) =>
  useUserMutation((image: string) => http.put<AdminUser>(`/iotapp/users/${id}/avatar/`, { image }, { toast: false }));

export const setPasswordWithToken = (token: string, password: string) =>
  http.post<{ message: string }>('/iotapp/users/set-password/', { token, password }, { toast: false });

/** The latest tickets assigned to the user that the caller may see (the helpdesk list, filtered by assignee). */
export const useAssignedTickets = (userId: number, enabled: boolean) =>
  useQuery({
    queryKey: ['helpdesk', 'assigned-to', userId],
    enabled,
    queryFn: () =>
      http.get<{ contents: TicketSummary[]; totalCount: number }>('/helpdesk/tickets/', {
        query: { assignedTo: userId, limit: 10, orderBy: '-createdAt' },
        toast: false,
      }),
  });
