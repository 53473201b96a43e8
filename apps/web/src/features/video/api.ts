import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type BodyOf } from '../../lib/api.ts';
import { isHttpError } from '../../lib/http.ts';
import { videoKeys } from './keys.ts';

export interface Page<T> {
  contents: T[];
  totalCount: number;
}

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
    ...(q.configured !== undefined ? { configured: q.configured ? ('true' as const) : ('false' as const) } : {}),
    ...(q.ids ? { ids: [...q.ids].sort((a, b) => a - b).join(',') } : {}),
  };
  return useQuery({
    queryKey: videoKeys.cameras(query),
    enabled: q.ids === undefined || q.ids.length > 0,
    queryFn: () => api.get('/api/cameras/', { query }),
  });
}

/** The server's ffmpeg and ffprobe, and what to install when one is missing. */
export function useVideoTools(enabled = true) {
  return useQuery({
    queryKey: videoKeys.tools,
    queryFn: () => api.get('/api/video-tools/'),
    enabled,
    staleTime: 60_000,
  });
}

export function useCamera(id: number) {
  return useQuery({
    queryKey: videoKeys.camera(id),
    queryFn: () => api.get('/api/cameras/{camId}/', { path: { camId: id } }),
    enabled: id > 0,
  });
}

export function useConfigureCamera(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/api/cameras/{camId}/configs/', 'put'>) =>
      api.put('/api/cameras/{camId}/configs/', body, { path: { camId: id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.all }),
  });
}

export function useTimeline(id: number, from: string, to: string) {
  return useQuery({
    queryKey: videoKeys.timeline(id, from, to),
    queryFn: () => api.get('/api/cameras/{camId}/timeline/', { path: { camId: id }, query: { from, to }, toast: false }),
    enabled: id > 0,
  });
}

export const startLiveView = (id: number) => api.get('/api/cameras/{camId}/live-view/', { path: { camId: id }, toast: false });
/** SPEC 7 DELETE /api/cameras/{id}/live-view/: the viewer is gone, the stream may stop. */
export const stopLiveView = (id: number) => api.del('/api/cameras/{camId}/live-view/', { path: { camId: id }, toast: false });
export const fetchSnapshot = (id: number) => api.get('/api/cameras/{camId}/snapshot/', { path: { camId: id }, toast: false });
export const playbackUrl = (id: number, from: string, to: string) =>
  `/api/cameras/${id}/playback.m3u8?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

// storages
export function useStorages() {
  const query = { page: 1, limit: 100 };
  return useQuery({ queryKey: videoKeys.storages(query), queryFn: () => api.get('/api/storages/', { query }) });
}
export function useStorage(id: number) {
  return useQuery({ queryKey: videoKeys.storage(id), queryFn: () => api.get('/api/storages/{id}/', { path: { id } }), enabled: id > 0 });
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
    mutationFn: (body: StorageForm) => (id ? api.put('/api/storages/{id}/', body, { path: { id } }) : api.post('/api/storages/', body)),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.all }),
  });
}
export function useDeleteStorage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/api/storages/{id}/', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.all }),
  });
}

// tours
export function useTours() {
  return useQuery({
    queryKey: videoKeys.tours,
    queryFn: () => api.get('/api/camera-tours/', { query: { page: 1, limit: 100 } }),
  });
}
export function useTour(id: number) {
  return useQuery({ queryKey: videoKeys.tour(id), queryFn: () => api.get('/api/camera-tours/{id}/', { path: { id } }), enabled: id > 0 });
}
export type TourForm = BodyOf<'/api/camera-tours/', 'post'>;
export function useSaveTour(id: number | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TourForm) =>
      id ? api.put('/api/camera-tours/{id}/', body, { path: { id } }) : api.post('/api/camera-tours/', body),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.all }),
  });
}
export function useDeleteTour() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.del('/api/camera-tours/{id}/', { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.all }),
  });
}

// incidents
export function useIncidents(q: { page: number; limit: number; search?: string }) {
  const query = { page: q.page, limit: q.limit, ...(q.search ? { search: q.search } : {}) };
  return useQuery({ queryKey: videoKeys.incidents(query), queryFn: () => api.get('/api/incident-reports/', { query }) });
}
export function useIncident(id: number) {
  return useQuery({
    queryKey: videoKeys.incident(id),
    queryFn: () => api.get('/api/incident-reports/{id}/', { path: { id } }),
    enabled: id > 0,
    refetchInterval: (q) => (q.state.data?.clipStatus === 'pending' ? 3000 : false),
  });
}
/** The camera that watches a packing table; null when none the user may see does. */
export function useTableCamera(table: string) {
  return useQuery({
    queryKey: videoKeys.tableCamera(table),
    enabled: table.length > 0,
    retry: false,
    queryFn: async () => {
      try {
        return await api.get('/api/incident-reports/table-camera/', { query: { table }, toast: false });
      } catch (e) {
        if (isHttpError(e) && e.status === 404) return null;
        throw e;
      }
    },
  });
}
export type IncidentForm = BodyOf<'/api/incident-reports/', 'post'>;
export function useCreateIncident() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: IncidentForm) => api.post('/api/incident-reports/', body),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.all }),
  });
}
export function useUpdateIncident(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<'/api/incident-reports/{id}/', 'put'>) => api.put('/api/incident-reports/{id}/', body, { path: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.all }),
  });
}

// batch playback downloads
export function useClipJobs() {
  return useQuery({
    queryKey: videoKeys.clips,
    queryFn: () => api.get('/api/video-clips/'),
    refetchInterval: (q) => (q.state.data?.jobs.some((j) => j.status === 'starting' || j.status === 'processing') ? 3000 : 15_000),
  });
}
export function useCreateBatch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { cameraIds: number[]; windows: { from: string; to: string }[]; name?: string }) =>
      api.post('/api/batch-playback-download/', body),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.clips }),
  });
}
export function useMarkClipDownloaded() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { jobId: number; tid: string }) =>
      api.put('/api/batch-playback-download/{jobId}/', { tid: v.tid }, { path: { jobId: v.jobId }, query: { kind: 'clips' } }),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.clips }),
  });
}
export function useDeleteClipJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (jobId: number) => api.del('/api/batch-playback-download/{jobId}/', { path: { jobId }, query: { kind: 'clips' } }),
    onSuccess: () => client.invalidateQueries({ queryKey: videoKeys.clips }),
  });
}
