import type { AdministratorRightsRestored, BackupList, BackupStarted, OutboundNetworksAnswer } from '@sitewatch/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { adminKeys } from './keys.ts';

export interface OutboxMessage {
  id: number;
  to: string;
  body: string;
  createdAt: string;
}

const OUTBOX_REFRESH_MS = 10_000;

/** GET /api/auth/outbox/ (system admin): the SMS the platform sent, newest first. */
export function useOutbox() {
  return useQuery({
    queryKey: adminKeys.outbox,
    queryFn: () => api.get('/api/auth/outbox/'),
    refetchInterval: OUTBOX_REFRESH_MS,
  });
}

const BACKUPS_REFRESH_MS = 15_000;
const BACKUPS_RUNNING_REFRESH_MS = 3_000;

/** GET /api/admin/backups/ (system admin): the installation's backups, newest first; `available` false elsewhere. */
export function useBackups(enabled = true) {
  return useQuery({
    queryKey: adminKeys.backups,
    enabled,
    queryFn: (): Promise<BackupList> => api.get('/api/admin/backups/'),
    refetchInterval: (query) =>
      query.state.data?.items.some((item) => item.status === 'running') ? BACKUPS_RUNNING_REFRESH_MS : BACKUPS_REFRESH_MS,
  });
}

/** POST /api/admin/backups/: queues a backup now. */
export function useStartBackup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/admin/backups/', undefined, { toast: false }) as Promise<BackupStarted>,
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.backups }),
  });
}

/** POST /api/admin/administrator-rights/restore/: the administrators' groups get every permission again. */
export function useRestoreAdministratorRights() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post('/api/admin/administrator-rights/restore/', undefined, { toast: false }) as Promise<AdministratorRightsRestored>,
    // the caller's own rights may have grown: the profile and every screen built on it load again
    onSuccess: () => client.invalidateQueries(),
  });
}

/** GET /api/admin/outbound-networks/ (system admin): the networks the tenant's devices may be dialled in. */
export function useOutboundNetworks() {
  return useQuery({
    queryKey: adminKeys.outboundNetworks,
    queryFn: (): Promise<OutboundNetworksAnswer> => api.get('/api/admin/outbound-networks/'),
  });
}

/** PUT /api/admin/outbound-networks/: the tenant's own list, or null for the install's default. */
export function useSaveOutboundNetworks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (networks: string[] | null) =>
      api.put('/api/admin/outbound-networks/', { networks }, { toast: false }) as Promise<OutboundNetworksAnswer>,
    onSuccess: (saved) => client.setQueryData(adminKeys.outboundNetworks, saved),
  });
}
