import type {
  BulkCommandList,
  BulkCommandRequest,
  BulkCommandStatus,
  CommandList,
  CommandRequest,
  DeviceCommand,
} from '@sitewatch/contracts/commands';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { http } from '../../lib/http.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime } from '../../lib/realtime.ts';
import { commandKeys } from './keys.ts';

/** A burst of state changes (a bulk command's replies) refetches at most this often. */
const LIVE_THROTTLE_MS = 300;

/**
 * Keeps the command queries current from `command.updated` pushes while mounted: at most one refetch per
 * throttle window however many devices answer at once.
 */
export function useCommandsLive() {
  const client = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = realtime.on('command', () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        void client.invalidateQueries({ queryKey: commandKeys.all });
      }, LIVE_THROTTLE_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [client]);
}

export const useCommandList = (query: Query, enabled = true) =>
  useQuery({
    queryKey: commandKeys.list(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => http.request<CommandList>('/api/commands/', { query, toast: false }),
  });

export const useBulkList = (query: Query, enabled = true) =>
  useQuery({
    queryKey: commandKeys.bulks(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => http.request<BulkCommandList>('/api/commands/bulk/', { query, toast: false }),
  });

export const useBulkStatus = (id: number | null, query: Query) =>
  useQuery({
    queryKey: commandKeys.bulk(id ?? 0, query),
    enabled: id !== null,
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: () => http.request<BulkCommandStatus>(`/api/commands/bulk/${id}/`, { query, toast: false }),
  });

export function useSendCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CommandRequest) => http.request<DeviceCommand>('/api/commands/', { method: 'POST', body, toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: commandKeys.all }),
  });
}

export function useSendBulk() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkCommandRequest) =>
      http.request<BulkCommandStatus>('/api/commands/bulk/', { method: 'POST', body, toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: commandKeys.all }),
  });
}
