import type { User } from '@sitewatch/contracts/auth';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api } from '../../lib/api.ts';
import { setUser, useUser } from '../../lib/session.ts';
import { profileKeys } from './keys.ts';

export interface ProfileUpdate {
  firstname: string;
  lastname: string;
  email: string;
  mobile: string | null;
  notificationConfig: { popup: boolean };
}
export interface Session {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  ip: string | null;
  loginMethod: string;
  current: boolean;
}
export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
}

/** The profile from the server; the stored user info is kept in step with it. */
export function useProfile() {
  const user = useUser();
  return useQuery({
    queryKey: profileKeys.profile,
    enabled: Boolean(user),
    queryFn: async () => {
      const profile = await api.get('/api/auth/profile/');
      setUser(profile);
      return profile;
    },
  });
}

/**
 * Keeps the stored rights in step with the server: a group or role change by an admin shows (menu entries and
 * screens appear or disappear) on the next page load or when the window regains focus.
 */
export function useFreshRights() {
  const user = useUser();
  useQuery({
    queryKey: profileKeys.profile,
    enabled: Boolean(user),
    staleTime: 0,
    refetchOnWindowFocus: true,
    queryFn: async () => {
      try {
        const profile = await api.get('/api/auth/profile/', { toast: false });
        setUser(profile);
        return profile;
      } finally {
        markRightsChecked();
      }
    },
  });
}

// Whether the rights were read from the server since the page loaded: until then a screen that the stored rights
// would refuse waits instead of sending the user away.
let rightsChecked = false;
const rightsListeners = new Set<() => void>();
function markRightsChecked() {
  if (rightsChecked) return;
  rightsChecked = true;
  for (const listener of rightsListeners) listener();
}
const subscribeRights = (listener: () => void) => {
  rightsListeners.add(listener);
  return () => rightsListeners.delete(listener);
};
export const useRightsChecked = () => useSyncExternalStore(subscribeRights, () => rightsChecked);

function useUserMutation<TArgs>(call: (args: TArgs) => Promise<User>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (user) => {
      setUser(user);
      client.setQueryData(profileKeys.profile, user);
    },
  });
}

export const useUpdateProfile = () => useUserMutation((body: ProfileUpdate) => api.put('/api/auth/profile/', body, { toast: false }));
export const useEnableTotp = () => useUserMutation((code: string) => api.post('/api/auth/totp/enable/', { code }, { toast: false }));
export const useDisableTotp = () => useUserMutation((code: string) => api.post('/api/auth/totp/disable/', { code }, { toast: false }));

export function useTotpSetup() {
  return useMutation({ mutationFn: () => api.post('/api/auth/totp/setup/', undefined, { toast: false }) });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: { oldPassword: string; newPassword: string; confirmPassword: string }) =>
      api.post('/api/auth/change-password/', body, { toast: false }),
  });
}

export function useSessions(enabled: boolean) {
  return useQuery({
    queryKey: profileKeys.sessions,
    enabled,
    queryFn: () => api.get('/api/auth/sessions/'),
  });
}

export function useRevokeSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.del('/api/auth/sessions/{id}/', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.sessions }),
  });
}

/** POST /api/auth/sessions/sign-out-others/: ends every session of the user but this one. */
export function useRevokeOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/auth/sessions/sign-out-others/', undefined),
    onSuccess: () => client.invalidateQueries({ queryKey: profileKeys.sessions }),
  });
}
