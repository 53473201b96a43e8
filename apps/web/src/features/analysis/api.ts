import type { Analyser, AnalysisCameraSettings, AnalysisCameraSettingsBody, AnalysisVerdictBody } from '@sitewatch/contracts/analysis';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type QueryParamsOf } from '../../lib/api.ts';
import { http } from '../../lib/http.ts';
import { analysisKeys } from './keys.ts';

export interface ResultFilters {
  analyser?: Analyser;
  verdict?: 'PENDING' | 'TRUE_POSITIVE' | 'FALSE_POSITIVE';
  from?: string;
  offset: number;
  limit: number;
}

export const frameUrl = (id: number) => `/api/analysis/results/${id}/frame/`;

export function useAnalysisResults(filters: ResultFilters) {
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '')) as ResultFilters;
  return useQuery({
    queryKey: analysisKeys.results({ ...query }),
    // the analyser list of the contracts is the source (the generated query type may lag a new analyser)
    queryFn: () => api.get('/api/analysis/results/', { query: query as QueryParamsOf<'/api/analysis/results/', 'get'> }),
    placeholderData: keepPreviousData,
  });
}

/** The oldest unverified result after `after` (the one just answered). */
export function useAnalysisQueue(after: number | null) {
  return useQuery({
    queryKey: analysisKeys.queue(after),
    queryFn: () => api.get('/api/analysis/queue/', { query: after ? { after } : {} }),
  });
}

/** Loads the item after `after` into the cache, so that the next one shows at once. */
export function usePrefetchQueue() {
  const client = useQueryClient();
  return (after: number) =>
    client.prefetchQuery({
      queryKey: analysisKeys.queue(after),
      queryFn: () => api.get('/api/analysis/queue/', { query: { after } }),
    });
}

export function useVerdict() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: AnalysisVerdictBody & { id: number }) =>
      api.put('/api/analysis/results/{id}/verdict/', body, { path: { id } }),
    // The next item was prefetched before this verdict: its count of waiting results must be read again too. The
    // refetch is not awaited: the verdict is done when the server has it, and a refetch that showed the next result
    // while the verdict still counted as pending would drop the keys pressed on that result.
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: analysisKeys.all, refetchType: 'all' });
    },
  });
}

export function useAnalysisSummary(from: string) {
  return useQuery({
    queryKey: analysisKeys.summary({ from }),
    queryFn: () => api.get('/api/analysis/summary/', { query: { from } }),
  });
}

export function useResetReference() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (camId: number) => api.del('/api/analysis/cameras/{camId}/reference/', { path: { camId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: analysisKeys.all }),
  });
}

export function useRunAnalysis() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (camId: number) => api.post('/api/analysis/cameras/{camId}/run/', undefined, { path: { camId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: analysisKeys.all }),
  });
}

/** The region and hours of a camera's "motion in a region" analyser. */
export function useCameraAnalysisSettings(camId: number | null) {
  return useQuery({
    queryKey: analysisKeys.settings(camId ?? 0),
    queryFn: () => http.get<AnalysisCameraSettings>(`/api/analysis/cameras/${camId}/settings/`),
    enabled: camId !== null && camId > 0,
  });
}

export function useSaveCameraAnalysisSettings(camId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AnalysisCameraSettingsBody) => http.put<AnalysisCameraSettings>(`/api/analysis/cameras/${camId}/settings/`, body),
    onSuccess: (saved) => client.setQueryData(analysisKeys.settings(camId), saved),
  });
}
