import { z } from 'zod';
import { idCoerced } from './common.ts';

/** Download job constants of the specification (section 9). */
export const DOWNLOAD_JOBS = {
  refreshSec: 15,
  minRefreshSec: 3,
} as const;

/** SPEC 4: download job statuses, and `error` for a task. */
export const DOWNLOAD_STATUSES = ['starting', 'processing', 'ready-to-download', 'completed', 'failed'] as const;
export const downloadStatusSchema = z.enum(DOWNLOAD_STATUSES);
export type DownloadStatus = z.infer<typeof downloadStatusSchema>;
export const TASK_STATUSES = [...DOWNLOAD_STATUSES, 'error'] as const;
export const taskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** SPEC 2.8: failed red, completed green, processing orange, otherwise blue. */
export const DOWNLOAD_STATUS_COLOURS = {
  failed: '#d32f2f',
  completed: '#2e7d32',
  processing: '#ed6c02',
  other: '#1976d2',
} as const;
export const downloadStatusColour = (status: string) =>
  status === 'failed' || status === 'completed' || status === 'processing'
    ? DOWNLOAD_STATUS_COLOURS[status]
    : DOWNLOAD_STATUS_COLOURS.other;

/** SPEC 2.8: progress shows 100 for failed, completed or ready-to-download. */
export const shownProgress = (status: string, progress: number) =>
  status === 'failed' || status === 'completed' || status === 'ready-to-download' ? 100 : Math.max(0, Math.min(100, Math.round(progress)));

/** The words users read for a job's or a task's status (the codes are for programs). */
export const DOWNLOAD_STATUS_LABELS: Record<string, string> = {
  starting: 'Starting',
  processing: 'Processing',
  'ready-to-download': 'Ready to download',
  completed: 'Downloaded',
  failed: 'Failed',
  error: 'Failed',
};
export const downloadStatusLabel = (status: string) => DOWNLOAD_STATUS_LABELS[status] ?? status;

/** Jobs that still run: the download button pulses and keeps polling while any exists. */
export const isActiveDownload = (status: string) => status === 'starting' || status === 'processing';

export const DOWNLOAD_MESSAGES = {
  pageTitle: 'Downloads',
  viewAll: 'View All',
  noDownloads: 'No downloads yet',
  notFound: (query: string) => `No downloads found for "${query}".`,
  stopTitle: (file: string) => `Stop downloading '${file}'?`,
  deleteTitle: (file: string) => `Delete '${file}'?`,
  stopBody: 'This stops the download and removes the file from the list.',
  deleteBody: 'This removes the file from the list.',
  stop: 'Stop',
  delete: 'Delete',
  download: 'Download',
  downloadCancelled: 'Download cancelled',
  deleted: 'Successfully Deleted',
  expiresIn: (text: string) => `Expires In ${text}`,
  fewMinutes: 'Few minutes',
  today: 'Today',
  yesterday: 'Yesterday',
  searchPlaceholder: 'Search downloads',
  // SPEC 4 task messages
  fetchingPlaylist: 'Fetching Playlist from DVR',
  convertingToMp4: 'Converting to MP4',
  fileProcessed: 'file processed successfully',
  // SPEC 4 export states
  fetchingData: 'Fetching Data...',
  processingData: 'Processing Data...',
  dataIsEmpty: 'Data Is Empty...',
  exportFailed: 'Error generating CSV, Please try agin later!',
  exportStarted: 'Export started. Follow it in Downloads.',
} as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** SPEC 2.8: time left as months, days, hours and minutes, or 'Few minutes' under one minute. */
export function formatTimeLeft(ms: number): string {
  if (ms < MINUTE) return DOWNLOAD_MESSAGES.fewMinutes;
  const parts: string[] = [];
  let rest = ms;
  for (const [size, unit] of [
    [MONTH, 'month'],
    [DAY, 'day'],
    [HOUR, 'hour'],
    [MINUTE, 'minute'],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(plural(n, unit));
  }
  return parts.join(' ');
}

export const downloadTaskSchema = z.object({
  id: z.number().int(),
  tid: z.uuid(),
  name: z.string(),
  cameraLabel: z.string().nullable(),
  description: z.string(),
  status: taskStatusSchema,
  progress: z.number(),
  /** Where the finished file is downloaded from (an authenticated API path), null until it is ready. */
  path: z.string().nullable(),
  /** The user downloaded the file. */
  isRead: z.boolean(),
  size: z.number().int().nullable(),
});
export type DownloadTask = z.infer<typeof downloadTaskSchema>;

export const downloadJobSchema = z.object({
  jobId: z.number().int(),
  name: z.string(),
  /** Source of the job: an export kind (`users`, `tickets`, ...) or `clips` for camera downloads. */
  kind: z.string(),
  status: downloadStatusSchema,
  progress: z.number(),
  progressStatus: z.record(z.string(), z.number().int()),
  tasks: z.array(downloadTaskSchema),
  lastUpdated: z.string(),
  createdAt: z.string(),
  /** When the files are removed; null while the job runs. */
  expiresAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type DownloadJob = z.infer<typeof downloadJobSchema>;

export const downloadListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export const downloadListSchema = z.object({ jobs: z.array(downloadJobSchema), totalCount: z.number().int() });
export type DownloadList = z.infer<typeof downloadListSchema>;

export const jobIdParamSchema = z.object({ jobId: idCoerced });
export const taskFileParamSchema = z.object({ jobId: idCoerced, tid: z.uuid() });
export const markDownloadedSchema = z.strictObject({ tid: z.uuid() });

export const exportKindSchema = z.string().regex(/^[a-z][a-z0-9-]{1,40}$/, 'Unknown export');
/** File formats an export can be written in (CSV unless asked). */
export const EXPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const exportCreateSchema = z.strictObject({
  kind: exportKindSchema,
  format: z.enum(EXPORT_FORMATS).default('csv'),
  /** Filters of the source; each source validates its own. */
  params: z.record(z.string(), z.unknown()).default({}),
  /** File name without extension; the source's label by default. */
  name: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .regex(/^[^/\\:*?"<>|]+$/, 'Invalid file name')
    .refine((name) => ![...name].some((c) => c.charCodeAt(0) < 32), 'Invalid file name')
    .optional(),
});
export type ExportCreate = z.infer<typeof exportCreateSchema>;

export const exportSourceSchema = z.object({ kind: z.string(), label: z.string(), columns: z.array(z.string()) });
export const exportSourceListSchema = z.object({ contents: z.array(exportSourceSchema) });
