import type { NotificationMetadata } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { BackupRunner } from '../../platform/backup/runner.ts';
import type { Db } from '../../platform/db.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import { BACKUP_QUEUE, backupRoutes, SCHEDULED_BACKUP_QUEUE } from './routes.ts';
import { type BackupService, type BackupSettings, createBackupService } from './service.ts';

export interface BackupsPorts {
  db: Db;
  jobs: JobWorker;
  log: FastifyBaseLogger;
  clock: Clock;
  runner: BackupRunner;
  settings: BackupSettings;
  /** The slug of the installation's own tenant, whose system administrators look after backups. */
  installTenant: string;
  alertAdmins(message: string): Promise<void>;
}

export const BACKUP_FAILED_VERB = 'backup failed';
const ADMIN_BACKUPS_URL = '/app-admin?tab=backups';

/** Where a backup failure notice leads: the backups tab of /app-admin. */
export const backupFailureMetadata = (message: string): NotificationMetadata => ({
  url: ADMIN_BACKUPS_URL,
  urlMask: ADMIN_BACKUPS_URL,
  data: {
    id: null,
    priority: 'HIGH',
    event: message,
    status: 'FAILED',
    type: 'BACKUP',
    additionalInformation: { assetLabel: null },
    entityId: null,
    locationId: null,
  },
});

/** Time one backup job may hold without renewing its lease; the worker renews it while the backup runs. */
const BACKUP_LEASE_SECONDS = 300;

/**
 * Backups on a schedule and on demand, as jobs of the queue (so a `worker` process makes them in a split deployment),
 * with their record shown on /app-admin.
 */
export function createBackupsModule(ports: BackupsPorts): DomainModule<{ backups: BackupService }> {
  const backups = createBackupService(ports);
  return {
    ports: { backups },
    register(app) {
      backupRoutes(app, { db: ports.db, jobs: ports.jobs, backups, installTenant: ports.installTenant });
      ports.jobs.register(
        BACKUP_QUEUE,
        async (job) => backups.run('manual', typeof job.payload.startedBy === 'number' ? job.payload.startedBy : null),
        { leaseSeconds: BACKUP_LEASE_SECONDS },
      );
      ports.jobs.register(SCHEDULED_BACKUP_QUEUE, async () => backups.scheduled(), { leaseSeconds: BACKUP_LEASE_SECONDS });
      if (ports.settings.everyHours > 0) ports.jobs.every(SCHEDULED_BACKUP_QUEUE, ports.settings.everyHours * 3600_000);
    },
  };
}
