import {
  DOWNLOAD_JOBS,
  DOWNLOAD_MESSAGES,
  type DownloadJob,
  type DownloadList,
  type ExportCreate,
  isActiveDownload,
} from '@sitewatch/contracts/downloads';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { realtime, usePollingFallback } from '../../lib/realtime.ts';
import { useUser } from '../../lib/session.ts';
import { toast } from '../../lib/toasts.ts';
import { useCustomerSettings } from '../tenant-settings/api.ts';
import { downloadKeys } from './keys.ts';

// Job progress pushed by the server makes the list stale at once.
realtime.invalidateOn('job', downloadKeys.list);

/** SPEC 9: every 15 s by default, never more often than every 3 s. */
export const downloadRefreshMs = (seconds: number | undefined) =>
  Math.max(DOWNLOAD_JOBS.minRefreshSec, seconds ?? DOWNLOAD_JOBS.refreshSec) * 1000;

/** SPEC 4: with no jobs, or once none is running, polling stops. */
export const needsPolling = (jobs: DownloadJob[] | undefined) => Boolean(jobs?.some((j) => isActiveDownload(j.status)));

/** GET /api/batch-playback-download/: the user's download jobs, newest first. */
export function useDownloads() {
  const user = useUser();
  const settings = useCustomerSettings().data;
  const fallback = usePollingFallback(downloadRefreshMs(settings?.downloadRefreshSec));
  return useQuery({
    queryKey: downloadKeys.list,
    enabled: Boolean(user),
    queryFn: ({ signal }) => api.get('/api/batch-playback-download/', { signal, toast: false }),
    refetchInterval: (query) => (fallback !== false && needsPolling(query.state.data?.jobs) ? fallback : false),
    staleTime: 2_000,
  });
}

const kindQuery = (job: Pick<DownloadJob, 'kind'>) => ({ kind: job.kind });

/** DELETE: stops a running job or removes a finished one, with its files. */
export function useDeleteDownload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (job: DownloadJob) =>
      api.del('/api/batch-playback-download/{jobId}/', { path: { jobId: job.jobId }, query: kindQuery(job) }),
    onSuccess: (_result, job) => {
      client.setQueryData<DownloadList>(downloadKeys.list, (data) =>
        data
          ? { jobs: data.jobs.filter((j) => !(j.jobId === job.jobId && j.kind === job.kind)), totalCount: Math.max(0, data.totalCount - 1) }
          : data,
      );
      toast.success(isActiveDownload(job.status) ? DOWNLOAD_MESSAGES.downloadCancelled : DOWNLOAD_MESSAGES.deleted);
      void client.invalidateQueries({ queryKey: downloadKeys.list });
    },
  });
}

/** PUT {tid}: the file was downloaded. */
export function useMarkDownloaded() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ job, tid }: { job: DownloadJob; tid: string }) =>
      api.put('/api/batch-playback-download/{jobId}/', { tid }, { path: { jobId: job.jobId }, query: kindQuery(job), toast: false }),
    onSuccess: (updated) => {
      client.setQueryData<DownloadList>(downloadKeys.list, (data) =>
        data ? { ...data, jobs: data.jobs.map((j) => (j.jobId === updated.jobId && j.kind === updated.kind ? updated : j)) } : data,
      );
    },
  });
}

export interface ExportSourceInfo {
  kind: string;
  label: string;
  columns: string[];
}

/** The exports this user may start. */
export function useExportSources(enabled = true) {
  return useQuery({
    queryKey: downloadKeys.sources,
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async () => (await api.get('/api/exports/sources/')).contents,
  });
}

/** POST /api/exports/: starts a background export; it then shows in the download button and on /downloads. */
export function useStartExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<ExportCreate> & { kind: string }) => api.post('/api/exports/', { params: {}, ...body }),
    onSuccess: (job) => {
      client.setQueryData<DownloadList>(downloadKeys.list, (data) =>
        data
          ? { jobs: [job, ...data.jobs.filter((j) => !(j.jobId === job.jobId && j.kind === job.kind))], totalCount: data.totalCount + 1 }
          : { jobs: [job], totalCount: 1 },
      );
      toast.info(DOWNLOAD_MESSAGES.exportStarted);
      void client.invalidateQueries({ queryKey: downloadKeys.list });
    },
  });
}
