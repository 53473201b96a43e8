import { DOWNLOAD_MESSAGES, type DownloadJob, type DownloadStatus, type TaskStatus } from '@sitewatch/contracts';
import type { JobRow, TaskRow } from './repository.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Where a finished file is downloaded from: an authenticated path that checks the owner again. */
export const filePath = (jobId: number, tid: string) => `/api/batch-playback-download/${jobId}/files/${tid}/`;

const hasFile = (status: string) => status === 'ready-to-download' || status === 'completed';

/** The SPEC 3 Batch download job shape of an export job and its tasks. */
export function toDownloadJob(job: JobRow, tasks: TaskRow[]): DownloadJob {
  const progressStatus: Record<string, number> = {};
  for (const t of tasks) progressStatus[t.status] = (progressStatus[t.status] ?? 0) + 1;
  const status = job.status as DownloadStatus;
  const progress = tasks.length === 0 ? 0 : tasks.reduce((sum, t) => sum + t.progress, 0) / tasks.length;
  return {
    jobId: job.id,
    name: job.name,
    kind: job.kind,
    status,
    progress: status === 'completed' ? 100 : Math.round(progress * 10) / 10,
    progressStatus,
    tasks: tasks.map((t) => ({
      id: t.id,
      tid: t.tid,
      name: t.name,
      cameraLabel: t.camera_label,
      description: t.description || (t.status === 'starting' ? DOWNLOAD_MESSAGES.fetchingData : ''),
      status: t.status as TaskStatus,
      progress: t.status === 'completed' ? 100 : t.progress,
      path: hasFile(t.status) && t.blob_key ? filePath(job.id, t.tid) : null,
      isRead: t.is_read,
      size: t.size === null ? null : Number(t.size),
    })),
    lastUpdated: iso(job.updated_at) as string,
    createdAt: iso(job.created_at) as string,
    expiresAt: iso(job.expires_at),
    error: job.error,
  };
}
