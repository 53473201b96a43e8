import type { AlarmActionInput, CompactDevice, Device, DeviceTemplate, DeviceType, TemplateTelemetry } from '@sitewatch/contracts/devices';
import { DEFAULT_TELEMETRY } from '@sitewatch/contracts/devices';
import type { DeviceValuesPayload } from '@sitewatch/contracts/events';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf, type ResponseOf } from '../../lib/api.ts';
import { cachedById, entityCache, remember } from '../../lib/entity-cache.ts';
import type { Query } from '../../lib/http-client.ts';
import { realtime, usePollingFallback, useWatchDevices } from '../../lib/realtime.ts';
import type { Page } from '../sites/api.ts';
import { deviceKeys } from './keys.ts';

/** Data hooks of devices, templates, mappings and alarm actions. */

/** One route answers devices, or counts per type with groupBy=type; the rows tell which. */
type DeviceListAnswer = ResponseOf<'/iotapp/devices/', 'get'>;
export const devicesOf = (page: DeviceListAnswer) => ({
  contents: (page.contents as ReadonlyArray<DeviceListAnswer['contents'][number]>).filter((row): row is Device => 'id' in row),
  totalCount: page.totalCount,
});

/** Pushed live values of a watched device move its state in the cached device and device lists (dashboards). */
realtime.patchOn<DeviceValuesPayload>('device.values', ({ data }, client) => {
  if (!data || !Array.isArray(data.values) || data.values.length === 0) return;
  const patch = (d: Device): Device => {
    if (d.id !== data.deviceId) return d;
    const state = { ...d.state };
    for (const v of data.values) if (v.value !== null) state[v.key] = v.value;
    const newest = new Date(Math.max(...data.values.map((v) => v.ts))).toISOString();
    return { ...d, state, status: 'Online', stateUpdatedAt: newest, lastActivityAt: newest };
  };
  client.setQueryData<Device>(deviceKeys.one(data.deviceId), (old) => (old ? patch(old) : old));
  for (const [key, page] of client.getQueriesData<Page<Device>>({ queryKey: deviceKeys.lists })) {
    if (!page?.contents?.some((d) => d.id === data.deviceId)) continue;
    client.setQueryData<Page<Device>>(key, { ...page, contents: page.contents.map(patch) });
  }
});

/** The device list without groupBy (grouped answers are counts, see useDeviceTypes). */
export const fetchDevices = async (query: Query) => {
  const page = devicesOf(await api.get('/iotapp/devices/', { query: { ...query, groupBy: undefined } }));
  remember('devices', page.contents);
  return page;
};

/** One device by id, from the device cache when it is fresh enough (SPEC 9). */
export const deviceQuery = (id: number, opts: { toast?: boolean } = {}) => ({
  queryKey: deviceKeys.one(id),
  staleTime: 30_000,
  ...cachedById('devices', id, () => api.get('/iotapp/devices/{id}/', { path: { id }, toast: opts.toast })),
});

/** Devices change together (subtree actions, moves): the cached ones are dropped with the queries. */
function devicesChanged(client: ReturnType<typeof useQueryClient>) {
  entityCache('devices').clear();
  return client.invalidateQueries({ queryKey: deviceKeys.all });
}

export function useDevices(query: Query, opts: { enabled?: boolean; refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: deviceKeys.list(query),
    queryFn: () => fetchDevices(query),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
    refetchInterval: opts.refetchInterval,
  });
}

/**
 * Devices whose values a dashboard shows: their new values are pushed into the list while the socket is open
 * (status changes refetch it), and the list is polled every `pollMs` only while the socket is down.
 */
export function useLiveDevices(query: Query, pollMs: number, opts: { enabled?: boolean } = {}) {
  const refetchInterval = usePollingFallback(pollMs);
  const devices = useDevices(query, { enabled: opts.enabled, refetchInterval: refetchInterval === false ? undefined : refetchInterval });
  useWatchDevices((devices.data?.contents ?? []).map((d) => d.id));
  return devices;
}

type CompactAnswer = ResponseOf<'/iotapp/devices/compact-list/', 'get'>;
/** The compact list without groupBy=site: devices, not site groups. */
export const fetchCompact = async (query: Query) => {
  const page: CompactAnswer = await api.get('/iotapp/devices/compact-list/', { query: { ...query, groupBy: undefined } });
  const rows = page.contents as ReadonlyArray<CompactAnswer['contents'][number]>;
  return { contents: rows.filter((row): row is CompactDevice => 'id' in row), totalCount: page.totalCount };
};

export function useDevice(id: number | null) {
  return useQuery({ ...deviceQuery(id ?? 0), enabled: Boolean(id) });
}

export interface TypeCount {
  type: DeviceType;
  label: string;
  total: number;
  online: number;
  offline: number;
  notC: number;
}

export const fetchStatusCounts = (query: Query) => api.get('/iotapp/devices/status-counts/', { query });

export function useStatusCounts(query: Query, opts: { enabled?: boolean; refetchInterval?: number } = {}) {
  return useQuery({
    queryKey: deviceKeys.counts(query),
    queryFn: () => fetchStatusCounts(query),
    enabled: opts.enabled ?? true,
    refetchInterval: opts.refetchInterval,
    placeholderData: keepPreviousData,
  });
}

/** SPEC 7: groupBy=type&limit=50, the device types present. */
export function useDeviceTypes() {
  return useQuery({
    queryKey: deviceKeys.types,
    staleTime: 60_000,
    queryFn: () => api.get('/iotapp/devices/', { query: { groupBy: 'type', limit: 50 } }),
  });
}

export interface DeviceValues {
  label: string;
  type: DeviceType;
  assetId: number | null;
  parentId: number | null;
  templateId: number | null;
  metadata: Record<string, string | boolean | number | null>;
}

export function useSaveDevice(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: BodyOf<'/iotapp/devices/', 'post'>) =>
      id ? api.put('/iotapp/devices/{id}/', input, { path: { id }, toast: false }) : api.post('/iotapp/devices/', input, { toast: false }),
    onSuccess: () => devicesChanged(client),
  });
}

export function useDeleteDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/iotapp/devices/{id}/', { path: { id } }),
    onSuccess: () => devicesChanged(client),
  });
}

export function useAddToInventory(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<DeviceValues>) => api.post('/iotapp/devices/{id}/add-to-inventory/', input, { path: { id }, toast: false }),
    onSuccess: () => devicesChanged(client),
  });
}

export function useAssignDevices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { deviceIds: number[]; assetId: number | null; parentId: number | null }) =>
      api.post('/iotapp/devices/assign/', input, { toast: false }),
    onSuccess: () => devicesChanged(client),
  });
}

export function useAlarmAction(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AlarmActionInput) => api.post('/iotapp/devices/{id}/alarm-actions/', input, { path: { id }, toast: false }),
    onSuccess: () => devicesChanged(client),
  });
}

export interface AlarmActionLog {
  id: number;
  telemetryKey: string;
  telemetryValue: boolean;
  updateChildDevice: boolean;
  updatedDevices: number;
  createTicket: boolean;
  description: string;
  user: { id: number; name: string } | null;
  createdAt: string;
}

export function useAlarmActionLog(id: number) {
  return useQuery({
    queryKey: deviceKeys.actions(id),
    queryFn: () => api.get('/iotapp/devices/{id}/alarm-actions/', { path: { id }, query: { page: 1, limit: 20 } }),
  });
}

export const fetchTemplates = async (query: Query) => {
  const page = await api.get('/iotapp/device-templates/', { query });
  remember('deviceTemplates', page.contents);
  return page;
};

export function useTemplates(query: Query) {
  return useQuery({ queryKey: deviceKeys.templates(query), queryFn: () => fetchTemplates(query), placeholderData: keepPreviousData });
}

export function useTemplate(id: number | null) {
  return useQuery({
    queryKey: deviceKeys.template(id ?? 0),
    enabled: Boolean(id),
    staleTime: 30_000,
    ...cachedById('deviceTemplates', id ?? 0, () => api.get('/iotapp/device-templates/{id}/', { path: { id: id ?? 0 } })),
  });
}

export type TemplateValues = Pick<DeviceTemplate, 'name' | 'type' | 'vendor' | 'model' | 'description' | 'telemetry' | 'attributes'>;

export function useSaveTemplate(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TemplateValues) =>
      id
        ? api.put('/iotapp/device-templates/{id}/', input, { path: { id }, toast: false })
        : api.post('/iotapp/device-templates/', input, { toast: false }),
    onSuccess: (saved) => {
      entityCache('deviceTemplates').set(saved.id, saved);
      return client.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/iotapp/device-templates/{id}/', { path: { id } }),
    onSuccess: (_none, id) => {
      entityCache('deviceTemplates').delete(id);
      return client.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

/**
 * The telemetry keys a device shows: its template's, then its type's defaults for the keys the template does not
 * name (a template written before the device reported more keys still gets them labelled).
 */
export function useTelemetryKeys(type: DeviceType) {
  const templates = useTemplates({ type, limit: 500, orderBy: 'name' });
  return (templateId: number | null): TemplateTelemetry[] => {
    const template = templateId ? templates.data?.contents.find((t) => t.id === templateId) : undefined;
    return withDefaults(template?.telemetry ?? [], DEFAULT_TELEMETRY[type] ?? []);
  };
}

export function withDefaults(own: TemplateTelemetry[], defaults: TemplateTelemetry[]): TemplateTelemetry[] {
  const named = new Set(own.map((k) => k.key));
  return [...own, ...defaults.filter((k) => !named.has(k.key))];
}

export function useMappings(query: Query, enabled = true) {
  return useQuery({
    queryKey: deviceKeys.mappings(query),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => api.get('/iotapp/entity-mappings/', { query }),
  });
}

export function useSaveMapping() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: BodyOf<'/iotapp/entity-mappings/', 'post'>) => api.post('/iotapp/entity-mappings/', input, { toast: false }),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.mappingsAll }),
  });
}

export function useDeleteMapping() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/iotapp/entity-mappings/{id}/', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.mappingsAll }),
  });
}
