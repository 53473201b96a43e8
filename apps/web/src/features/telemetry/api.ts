import type { AlarmRuleInput } from '@sitewatch/contracts/alarms';
import type { TelemetryAggregation } from '@sitewatch/contracts/telemetry';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { realtime } from '../../lib/realtime.ts';
import { telemetryKeys } from './keys.ts';

/** Data hooks of live values, charts, device credentials, alarms and alarm rules. */

// a device changing status or raising an alarm makes live values and alarm lists stale
realtime.invalidateOn('device.status', telemetryKeys.all);
realtime.invalidateOn('alarm', telemetryKeys.alarmsAll);

/** Live values refresh every 10 s, and at once when the device's status changes. */
export function useLatest(deviceId: number) {
  return useQuery({
    queryKey: telemetryKeys.latest(deviceId),
    queryFn: () => api.get('/api/telemetry/devices/{id}/latest/', { path: { id: deviceId } }),
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
  const chart = params ?? { key: '', startTs: 0, endTs: 0, agg: 'none' as const };
  return useQuery({
    queryKey: telemetryKeys.chart(deviceId, chart),
    enabled: Boolean(params?.key),
    queryFn: () =>
      api.get('/api/telemetry/devices/{id}/chart/', {
        path: { id: deviceId },
        query: { key: chart.key, startTs: chart.startTs, endTs: chart.endTs, agg: chart.agg, interval: params?.interval },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 15_000 : false,
  });
}

export function useConnection(deviceId: number, enabled: boolean) {
  return useQuery({
    queryKey: telemetryKeys.connection(deviceId),
    enabled,
    queryFn: () => api.get('/api/telemetry/devices/{id}/connection/', { path: { id: deviceId }, toast: false }),
    staleTime: 60_000,
  });
}

export function useAlarms(query: { deviceId?: number; state?: 'ACTIVE' | 'CLEARED'; page: number; limit: number }) {
  return useQuery({
    queryKey: telemetryKeys.alarms(query),
    queryFn: () => api.get('/api/alarms/', { query }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

export function useAlarmRules() {
  return useQuery({ queryKey: telemetryKeys.rules, queryFn: () => api.get('/api/alarms/rules/') });
}

export function useSaveRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: AlarmRuleInput }) =>
      id ? api.put('/api/alarms/rules/{id}/', input, { path: { id } }) : api.post('/api/alarms/rules/', input),
    onSuccess: () => client.invalidateQueries({ queryKey: telemetryKeys.rules }),
  });
}

export function useDeleteRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/api/alarms/rules/{id}/', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: telemetryKeys.rules }),
  });
}
