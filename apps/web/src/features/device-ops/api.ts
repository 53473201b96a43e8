import type { DeviceCommand } from '@sitewatch/contracts/commands';
import type {
  AccessEventList,
  DiagnosticRun,
  DiagnosticRunInput,
  DiagnosticTarget,
  DoorList,
  RouterList,
  RtuList,
  RtuSite,
} from '@sitewatch/contracts/device-ops';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { api } from '../../lib/api.ts';
import { http } from '../../lib/http.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime, usePollingFallback, useRealtimeHandler, useWatchDevices } from '../../lib/realtime.ts';
import { deviceOpsKeys } from './keys.ts';

// An access event adds to the event lists and changes the door tiles; a device going on or offline changes every list.
realtime.invalidateOn('device.access-event', deviceOpsKeys.all);
realtime.invalidateOn('device.status', deviceOpsKeys.all);

const get = <T>(path: string, query?: Query) => http.request<T>(path, { method: 'GET', query, toast: false });

export const useDoors = (query: Query) =>
  useQuery({
    queryKey: deviceOpsKeys.doors(query),
    placeholderData: keepPreviousData,
    queryFn: () => get<DoorList>('/api/device-ops/access/doors/', query),
    refetchInterval: usePollingFallback(30_000),
  });

export const useAccessEvents = (query: Query) =>
  useQuery({
    queryKey: deviceOpsKeys.events(query),
    placeholderData: keepPreviousData,
    queryFn: () => get<AccessEventList>('/api/device-ops/access/events/', query),
    refetchInterval: usePollingFallback(30_000),
  });

export const useRouters = (query: Query) =>
  useQuery({
    queryKey: deviceOpsKeys.routers(query),
    placeholderData: keepPreviousData,
    queryFn: () => get<RouterList>('/api/device-ops/routers/', query),
    refetchInterval: usePollingFallback(30_000),
  });

export const useRtus = (query: Query) =>
  useQuery({
    queryKey: deviceOpsKeys.rtus(query),
    placeholderData: keepPreviousData,
    queryFn: () => get<RtuList>('/api/device-ops/rtus/', query),
    refetchInterval: usePollingFallback(30_000),
  });

export const useRtuSite = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: deviceOpsKeys.rtuSite(id),
    enabled,
    retry: false,
    queryFn: () => get<RtuSite>(`/api/device-ops/rtus/sites/${id}/`),
    refetchInterval: usePollingFallback(30_000),
  });

export const useTargets = (query: Query, enabled: boolean) =>
  useQuery({
    queryKey: deviceOpsKeys.targets(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => get<{ contents: DiagnosticTarget[]; totalCount: number }>('/api/device-ops/diagnostics/targets/', query),
  });

export const useRuns = (query: Query, enabled: boolean) =>
  useQuery({
    queryKey: deviceOpsKeys.runs(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => get<{ contents: DiagnosticRun[]; totalCount: number }>('/api/device-ops/diagnostics/runs/', query),
  });

export function useStartRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: DiagnosticRunInput) =>
      http.request<DiagnosticRun>('/api/device-ops/diagnostics/runs/', { method: 'POST', body: input, toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceOpsKeys.runsAll }),
  });
}

/** Tickets to attach a result to, found by the helpdesk's search. */
export const useTicketOptions = (search: string, enabled: boolean) =>
  useQuery({
    queryKey: deviceOpsKeys.tickets(search),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/helpdesk/tickets/', { query: { type: 'all', limit: 15, search: search || undefined }, toast: false }),
  });

export function useAttachRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ticketId }: { id: number; ticketId: number }) =>
      http.request<DiagnosticRun>(`/api/device-ops/diagnostics/runs/${id}/attach/`, { method: 'POST', body: { ticketId }, toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceOpsKeys.runsAll }),
  });
}

type Value = number | string | boolean | null;
export type LiveValues = Record<number, Record<string, Value>>;

/**
 * The newest values the shown devices push (`device.values`, the devices are watched while mounted), to lay over
 * the lists' stored state, which the server refreshes at most every 15 s.
 */
export function useLiveValues(deviceIds: number[]): LiveValues {
  useWatchDevices(deviceIds);
  const [live, setLive] = useState<LiveValues>({});
  const handler = useCallback((envelope: { type: string; data: unknown }) => {
    if (envelope.type !== 'device.values') return;
    const p = envelope.data as { deviceId: number; values: { key: string; value: Value }[] };
    setLive((prev) => {
      const next = { ...(prev[p.deviceId] ?? {}) };
      for (const v of p.values) next[v.key] = v.value;
      return { ...prev, [p.deviceId]: next };
    });
  }, []);
  useRealtimeHandler('device', handler);
  return live;
}

export const asBool = (v: Value | undefined, fallback: boolean | null): boolean | null =>
  v === undefined || v === null ? fallback : v === true || v === 1 || v === 'true' || v === '1';
export const asNum = (v: Value | undefined, fallback: number | null): number | null => {
  if (v === undefined || v === null || v === '') return fallback;
  const n = Number(v);
  return Number.isFinite(n) ? n : fallback;
};

const STATE_ORDER: DeviceCommand['state'][] = ['queued', 'sent', 'delivered', 'successful', 'timeout', 'failed', 'expired'];
const later = (a: DeviceCommand['state'] | undefined, b: DeviceCommand['state']) =>
  a !== undefined && STATE_ORDER.indexOf(a) > STATE_ORDER.indexOf(b) ? a : b;

/**
 * A command through the commands API; its state follows the `command.updated` events, which may arrive before the
 * answer to the POST (a connected device answers at once), so every state seen is kept and the furthest one wins.
 */
export function useDeviceCommand() {
  const [states, setStates] = useState<Record<number, DeviceCommand['state']>>({});
  const send = useMutation({
    mutationFn: (body: { deviceId: number; method: string; params: unknown }) =>
      http.request<DeviceCommand>('/api/commands/', { method: 'POST', body: { ...body, timeoutMs: 15_000 }, toast: false }),
    onSuccess: (command) => setStates((s) => ({ ...s, [command.id]: later(s[command.id], command.state) })),
  });
  const handler = useCallback((envelope: { type: string; data: unknown }) => {
    const p = envelope.data as { commandId: number; state: DeviceCommand['state'] };
    setStates((s) => ({ ...s, [p.commandId]: later(s[p.commandId], p.state) }));
  }, []);
  useRealtimeHandler('command', handler);
  const stateOf = (id: number | undefined) => (id === undefined ? undefined : states[id]);
  return { send, stateOf };
}
