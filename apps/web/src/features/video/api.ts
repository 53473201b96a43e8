import type { DownloadJob } from '@sitewatch/contracts/downloads';
import type { Camera, Incident, Storage, Tour } from '@sitewatch/contracts/video';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../lib/http.ts';

export interface Page<T> {
  contents: T[];
  totalCount: number;
}

export const videoKeys = {
  cameras: (q: Record<string, unknown>) => ['video', 'cameras', q] as const,
  camera: (id: number) => ['video', 'camera', id] as const,
  timeline: (id: number, from: string, to: string) => ['video', 'timeline', id, from, to] as const,
  storages: (q: Record<string, unknown>) => ['video', 'storages', q] as const,
  storage: (id: number) => ['video', 'storage', id] as const,
  tours: ['video', 'tours'] as const,
  tour: (id: number) => ['video', 'tour', id] as const,
  incidents: (q: Record<string, unknown>) => ['video', 'incidents', q] as const,
  incident: (id: number) => ['video', 'incident', id] as const,
  clips: ['video', 'clips'] as const,
};

export function useCameras(
  q: {
    page?: number;
    limit?: number;
    search?: string;
    assetId?: number;
    path?: string[];
    deviceId?: number;
    configured?: boolean;
    /** Only these cameras (a chosen list); an empty list asks for nothing. */
    ids?: number[];
  } = {},
) {
  const query = {
    page: q.page ?? 1,
    limit: q.limit ?? 200,
    ...(q.search ? { search: q.search } : {}),
    ...(q.assetId ? { assetId: q.assetId } : {}),
    ...(q.path?.length ? { path: q.path } : {}),
    ...(q.deviceId ? { deviceId: q.deviceId } : {}),
    ...(q.configured !== undefined ? { configured: String(q.configured) } : {}),
    ...(q.ids ? { ids: [...q.ids].sort((a, b) => a - b).join(',') } : {}),
  };
  return useQuery({
    queryKey: videoKeys.cameras(query),
    enabled: q.ids === undefined || q.ids.length > 0,
    queryFn: () => http.get<Page<Camera>>('/api/cameras/', { query }),
  });
}

export function useCamera(id: number) {
  return useQuery({ queryKey: videoKeys.camera(id), queryFn: () => http.get<Camera>(`/api/cameras/${id}/`), enabled: id > 0 });
}

export function useConfigureCamera(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      simulated: boolean;
      streamUrl: string | null;
      recordingEnabled: boolean;
      segmentSec: number;
      storageId: number | null;
    }) => http.put<Camera>(`/api/cameras/${id}/configs/`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video'] }),
  });
}

export function useTimeline(id: number, from: string, to: string) {
  return useQuery({
    queryKey: videoKeys.timeline(id, from, to),
    queryFn: () =>
      http.get<{ ranges: { start: string; end: string }[] }>(`/api/cameras/${id}/timeline/`, { query: { from, to }, toast: false }),
    enabled: id > 0,
  });
}

export const startLiveView = (id: number) =>
  http.get<{ url: string; wsUrl: string; state: string }>(`/api/cameras/${id}/live-view/`, { toast: false });
/** SPEC 7 DELETE /api/cameras/{id}/live-view/: the viewer is gone, the stream may stop. */
export const stopLiveView = (id: number) => http.del(`/api/cameras/${id}/live-view/`, { toast: false });
export const fetchSnapshot = (id: number) => http.get<{ path?: string; err?: string }>(`/api/cameras/${id}/snapshot/`, { toast: false });
export const playbackUrl = (id: number, from: string, to: string) =>
  `/api/cameras/${id}/playback.m3u8?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

// storages
export function useStorages() {
  const query = { page: 1, limit: 100 };
  return useQuery({ queryKey: videoKeys.storages(query), queryFn: () => http.get<Page<Storage>>('/api/storages/', { query }) });
}
export function useStorage(id: number) {
  return useQuery({ queryKey: videoKeys.storage(id), queryFn: () => http.get<Storage>(`/api/storages/${id}/`), enabled: id > 0 });
}
export interface StorageForm {
  name: string;
  path: string;
  retentionDays: number;
  maxBytes: number | null;
  isDefault: boolean;
}
export function useSaveStorage(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StorageForm) => (id ? http.put<Storage>(`/api/storages/${id}/`, body) : http.post<Storage>('/api/storages/', body)),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video'] }),
  });
}
export function useDeleteStorage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del(`/api/storages/${id}/`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video'] }),
  });
}

// tours
export function useTours() {
  return useQuery({
    queryKey: videoKeys.tours,
    queryFn: () => http.get<Page<Tour>>('/api/camera-tours/', { query: { page: 1, limit: 100 } }),
  });
}
export function useTour(id: number) {
  return useQuery({ queryKey: videoKeys.tour(id), queryFn: () => http.get<Tour>(`/api/camera-tours/${id}/`), enabled: id > 0 });
}
export interface TourForm {
  name: string;
  layout: number;
  stops: { cameraId: number; dwellSec: number }[];
}
export function useSaveTour(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TourForm) => (id ? http.put<Tour>(`/api/camera-tours/${id}/`, body) : http.post<Tour>('/api/camera-tours/', body)),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video'] }),
  });
}
export function useDeleteTour() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.del(`/api/camera-tours/${id}/`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video'] }),
  });
}

// incidents
export function useIncidents(q: { page: number; limit: number; search?: string }) {
  const query = { page: q.page, limit: q.limit, ...(q.search ? { search: q.search } : {}) };
  return useQuery({ queryKey: videoKeys.incidents(query), queryFn: () => http.get<Page<Incident>>('/api/incident-reports/', { query }) });
}
export function useIncident(id: number) {
  return useQuery({
    queryKey: videoKeys.incident(id),
    queryFn: () => http.get<Incident>(`/api/incident-reports/${id}/`),
    enabled: id > 0,
    refetchInterval: (q) => (q.state.data?.clipStatus === 'pending' ? 3000 : false),
  });
}
export interface IncidentForm {
  title: string;
  description: string;
  awb: string;
  tableNumber: string;
  cameraId: number;
  eventAt: string;
  durationSec: number;
}
export function useCreateIncident() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: IncidentForm) => http.post<Incident>('/api/incident-reports/', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video'] }),
  });
}
export function useUpdateIncident(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<IncidentForm> & { status?: string }) => http.put<Incident>(`/api/incident-reports/${id}/`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video'] }),
  });
}

// batch playback downloads
export function useClipJobs() {
  return useQuery({
    queryKey: videoKeys.clips,
    queryFn: () => http.get<{ jobs: DownloadJob[] }>('/api/video-clips/'),
    refetchInterval: (q) => (q.state.data?.jobs.some((j) => j.status === 'starting' || j.status === 'processing') ? 3000 : 15_000),
  });
}
export function useCreateBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { cameraIds: number[]; windows: { from: string; to: string }[]; name?: string }) =>
      http.post<{ jobId: number; taskCount: number; warning: string | null }>('/api/batch-playback-download/', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video', 'clips'] }),
  });
}
export function useMarkClipDownloaded() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { jobId: number; tid: string }) =>
      http.put(`/api/batch-playback-download/${v.jobId}/`, { tid: v.tid }, { query: { kind: 'clips' } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video', 'clips'] }),
  });
}
export function useDeleteClipJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (jobId: number) => http.del(`/api/batch-playback-download/${jobId}/`, { query: { kind: 'clips' } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['video', 'clips'] }),
  });
}
