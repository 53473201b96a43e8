import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { DownloadService, ExportRegistry } from '../downloads/index.ts';
import type { InventoryReports } from '../inventory/index.ts';
import type { PurchaseRequestService } from '../purchase-requests/index.ts';
import type { UserDirectory } from '../users/directory.ts';
import { reportRoutes } from './routes.ts';
import { createReportScheduleService, type ReportScheduleService } from './service.ts';
import { createReportSources } from './sources.ts';

export const REPORT_SCHEDULE_QUEUE = 'reports.schedules';
const SCHEDULE_CHECK_MS = 60_000;

export interface ReportsPorts {
  db: Db;
  jobs: JobWorker;
  clock: Clock;
  log: FastifyBaseLogger;
  /** A schedule runs with its owner's current roles and permissions (none when the user is gone or inactive). */
  users: Pick<UserDirectory, 'actor'>;
  exports: ExportRegistry;
  downloads: Pick<DownloadService, 'startExportAs'>;
  inventory: InventoryReports;
  requests: PurchaseRequestService;
}

export interface ReportsPort {
  schedules: ReportScheduleService;
}

/**
 * Reports (issue 18): the /inventory-report and /pr-report tables, their exports (registered with the downloads
 * module in CSV, XLSX and PDF), and report schedules run every minute on the job queue.
 */
export function createReportsModule(ports: ReportsPorts): DomainModule<ReportsPort> {
  const reports = createReportSources({ inventory: ports.inventory, requests: ports.requests });
  for (const source of Object.values(reports.sources)) ports.exports.registerSource(source);
  const schedules = createReportScheduleService({ ...ports, reports });
  return {
    ports: { schedules },
    register(app) {
      reportRoutes(app, { inventory: ports.inventory, requests: ports.requests, schedules });
      ports.jobs.register(REPORT_SCHEDULE_QUEUE, async () => schedules.runDue());
      ports.jobs.every(REPORT_SCHEDULE_QUEUE, SCHEDULE_CHECK_MS);
    },
  };
}
