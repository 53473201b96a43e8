import type { Alarm, AlarmRule, AlarmRuleInput } from '@sitewatch/contracts/alarms';
import type { ChartResponse, DeviceConnection, LatestResponse, TelemetryAggregation } from '@sitewatch/contracts/telemetry';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';
import { realtime } from '../../lib/realtime.ts';

/** Data hooks of live values, charts, device credentials, alarms and alarm rules. */

export const telemetryKeys = {
  all: ['telemetry'] as const,
  latest: (id: number) => ['telemetry', 'latest', id] as const,
  chart: (id: number, q: ChartParams) => ['telemetry', 'chart', id, q] as const,
  connection: (id: number) => ['telemetry', 'connection', id] as const,
  alarms: (q: Record<string, unknown>) => ['alarms', 'list', q] as const,
  rules: ['alarms', 'rules'] as const,
};

// a device changing status or raising an alarm makes live values and alarm lists stale
realtime.invalidateOn('device.status', telemetryKeys.all);
realtime.invalidateOn('alarm', ['alarms']);

/** Live values refresh every 10 s, and at once when the device's status changes. */
export function useLatest(deviceId: number) {
  return useQuery({
    queryKey: telemetryKeys.latest(deviceId),
    queryFn: () => http.get<LatestResponse>(`/api/telemetry/devices/${deviceId}/latest/`),
    refetchInterval: 10_000,
  });
}

export interface ChartParams {
  key: string;
  startTs: number;
  endTs: number;
  agg: TelemetryAggregation;
  interval?: number;
}

export function useChart(deviceId: number, params: ChartParams | null, live: boolean) {
  return useQuery({
    queryKey: telemetryKeys.chart(deviceId, params ?? { key: '', startTs: 0, endTs: 0, agg: 'none' }),
    enabled: Boolean(params?.key),
    queryFn: () =>
      http.get<ChartResponse>(`/api/telemetry/devices/${deviceId}/chart/`, {
        query: { key: params?.key, startTs: params?.startTs, endTs: params?.endTs, agg: params?.agg, interval: params?.interval },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 15_000 : false,
  });
}

export function useConnection(deviceId: number, enabled: boolean) {
  return useQuery({
    queryKey: telemetryKeys.connection(deviceId),
    enabled,
    queryFn: () => http.get<DeviceConnection>(`/api/telemetry/devices/${deviceId}/connection/`, { toast: false }),
    staleTime: 60_000,
  });
}

export function useAlarms(query: { deviceId?: number; state?: 'ACTIVE' | 'CLEARED'; page: number; limit: number }) {
  return useQuery({
    queryKey: telemetryKeys.alarms(query),
    queryFn: () => http.get<{ contents: Alarm[]; totalCount: number }>('/api/alarms/', { query }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

export function useAlarmRules() {
  return useQuery({ queryKey: telemetryKeys.rules, queryFn: () => http.get<{ contents: AlarmRule[] }>('/api/alarms/rules/') });
}

export function useSaveRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: AlarmRuleInput }) =>
      id ? http.put<AlarmRule>(`/api/alarms/rules/${id}/`, input) : http.post<AlarmRule>('/api/alarms/rules/', input),
    onSuccess: () => client.invalidateQueries({ queryKey: telemetryKeys.rules }),
  });
}

export function useDeleteRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del<{ success: boolean }>(`/api/alarms/rules/${id}/`),
    onSuccess: () => client.invalidateQueries({ queryKey: telemetryKeys.rules }),
  });
}
