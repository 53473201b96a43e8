import type { AlarmRuleInput } from '@sitewatch/contracts/alarms';
import type { DeviceValuesPayload } from '@sitewatch/contracts/events';
import type { TelemetryAggregation } from '@sitewatch/contracts/telemetry';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ResponseOf } from '../../lib/api.ts';
import { realtime, usePollingFallback, useWatchDevices } from '../../lib/realtime.ts';
import { telemetryKeys } from './keys.ts';

/** Data hooks of live values, charts, device credentials, alarms and alarm rules. */

// a device changing status makes its own live values stale (not every device's); an alarm, the alarm lists
realtime.patchOn<{ deviceId?: number }>('device.status', ({ data }, client) => {
  if (typeof data?.deviceId === 'number') void client.invalidateQueries({ queryKey: telemetryKeys.latest(data.deviceId) });
});
realtime.invalidateOn('alarm', telemetryKeys.alarmsAll);

type LatestResponse = ResponseOf<'/api/telemetry/devices/{id}/latest/', 'get'>;
type ChartResponse = ResponseOf<'/api/telemetry/devices/{id}/chart/', 'get'>;

/** Pushed values of a watched device go straight into its cached live values and raw charts. */
realtime.patchOn<DeviceValuesPayload>('device.values', ({ data }, client) => {
  if (!data || !Array.isArray(data.values)) return;
  client.setQueryData<LatestResponse>(telemetryKeys.latest(data.deviceId), (old) => {
    if (!old) return old;
    const telemetry = [...old.telemetry];
    for (const v of data.values) {
      const at = telemetry.findIndex((t) => t.key === v.key);
      if (at < 0) telemetry.push(v);
      else if ((telemetry[at]?.ts ?? 0) <= v.ts) telemetry[at] = v;
    }
    telemetry.sort((a, b) => a.key.localeCompare(b.key));
    const newest = Math.max(...data.values.map((v) => v.ts));
    return {
      ...old,
      telemetry,
      status: 'Online',
      lastActivityAt: new Date(Math.max(newest, Date.parse(old.lastActivityAt ?? '') || 0)).toISOString(),
    };
  });
  for (const [key, chart] of client.getQueriesData<ChartResponse>({ queryKey: telemetryKeys.charts(data.deviceId) })) {
    const params = key[3] as ChartParams | undefined;
    if (!chart || !params || params.agg !== 'none' || chart.truncated) continue;
    // stored as numbers: booleans chart as 1 and 0
    const fresh = data.values.flatMap((v) =>
      v.key === params.key &&
      (typeof v.value === 'number' || typeof v.value === 'boolean') &&
      v.ts >= params.startTs &&
      !chart.points.some((p) => p.ts === v.ts)
        ? [{ ts: v.ts, value: Number(v.value) }]
        : [],
    );
    if (fresh.length === 0) continue;
    const points = [...chart.points, ...fresh].sort((a, b) => a.ts - b.ts);
    client.setQueryData<ChartResponse>(key, { ...chart, points });
  }
});

/** Live values: pushed while the socket is open (the device is watched), polled every 10 s only while it is down. */
export function useLatest(deviceId: number) {
  useWatchDevices([deviceId]);
  return useQuery({
    queryKey: telemetryKeys.latest(deviceId),
    queryFn: () => api.get('/api/telemetry/devices/{id}/latest/', { path: { id: deviceId } }),
    refetchInterval: usePollingFallback(10_000),
  });
}

export interface ChartParams {
  key: string;
  startTs: number;
  endTs: number;
  agg: TelemetryAggregation;
  interval?: number;
}

/** A chart; following live it polls every 15 s only while the socket is down (pushed points extend it otherwise). */
export function useChart(deviceId: number, params: ChartParams | null, live: boolean) {
  const chart = params ?? { key: '', startTs: 0, endTs: 0, agg: 'none' as const };
  useWatchDevices(live ? [deviceId] : []);
  const poll = usePollingFallback(live ? 15_000 : false);
  return useQuery({
    queryKey: telemetryKeys.chart(deviceId, chart),
    enabled: Boolean(params?.key),
    queryFn: () =>
      api.get('/api/telemetry/devices/{id}/chart/', {
        path: { id: deviceId },
        query: { key: chart.key, startTs: chart.startTs, endTs: chart.endTs, agg: chart.agg, interval: params?.interval },
      }),
    placeholderData: keepPreviousData,
    refetchInterval: poll,
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

/** Alarm lists: raised and cleared alarms are pushed (they make the lists stale); polled only while the socket is down. */
export function useAlarms(query: { deviceId?: number; state?: 'ACTIVE' | 'CLEARED'; search?: string; page: number; limit: number }) {
  return useQuery({
    queryKey: telemetryKeys.alarms(query),
    queryFn: () => api.get('/api/alarms/', { query }),
    placeholderData: keepPreviousData,
    refetchInterval: usePollingFallback(30_000),
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

/** Raises a ticket from an alarm (or gets the alarm's open ticket); the alarm lists then show it. */
export function useRaiseAlarmTicket() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (alarmId: number) => api.post('/api/alarms/{id}/ticket/', undefined, { path: { id: alarmId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: telemetryKeys.alarmsAll }),
  });
}
