import { z } from 'zod';

export const BACKUP_REASONS = ['manual', 'scheduled', 'before-migrate'] as const;
export const BACKUP_STATUSES = ['running', 'succeeded', 'failed'] as const;

/** Texts of the backups panel of /app-admin and of its notification. */
export const BACKUP_MESSAGES = {
  started: 'A backup was started. It appears in the list when it is finished.',
  alreadyWaiting: 'A backup is already waiting or running.',
  failedNotice: 'The backup of {time} failed: {error}',
  onlyInstallAdmins: "Backups belong to the installation: only the system administrators of the installation's own tenant see them.",
} as const;

/** One backup the product made (GET /api/admin/backups/). */
export const backupRunSchema = z.object({
  id: z.number().int(),
  reason: z.enum(BACKUP_REASONS),
  status: z.enum(BACKUP_STATUSES),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The backup's folder inside the backup folder. */
  name: z.string().nullable(),
  bytes: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  verified: z.boolean(),
  withRecordings: z.boolean(),
  /** Removed by the keep-last-N rule. */
  removed: z.boolean(),
  error: z.string().nullable(),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

export const backupListSchema = z.object({
  /** false for the system administrators of other tenants: backups hold every tenant, so theirs is an empty answer. */
  available: z.boolean(),
  schedule: z
    .object({
      /** Hours between scheduled backups; 0: none are scheduled. */
      everyHours: z.number().int(),
      keep: z.number().int(),
      folder: z.string(),
      withRecordings: z.boolean(),
      nextAt: z.string().nullable(),
    })
    .nullable(),
  items: z.array(backupRunSchema),
});
export type BackupList = z.infer<typeof backupListSchema>;

/** POST /api/admin/backups/: the backup job was queued. */
export const backupStartedSchema = z.object({ jobId: z.number().int(), message: z.string() });
export type BackupStarted = z.infer<typeof backupStartedSchema>;
