import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { DomainModule } from '../../platform/module.ts';
import type { TicketService } from '../helpdesk/ticket-service.ts';
import { analysisRoutes } from './routes.ts';
import { type AnalysisDeps, createAnalysisService } from './service.ts';

export const ANALYSIS_QUEUE = 'analysis.sweep';
/** Every camera's new footage is looked at about once a minute (cameras in turn, within the pass's budget). */
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BUDGET_MS = 15_000;

export interface AnalysisPorts extends AnalysisDeps {
  jobs: JobWorker;
  /** A false positive resolves its AI audit ticket, as the person who gave the verdict. */
  ticketUpdates: Pick<TicketService, 'update' | 'get'>;
}

export interface AnalysisPort {
  /** One analysis pass (tests and the benchmark run it directly). */
  sweep: ReturnType<typeof createAnalysisService>['sweep'];
}

/** Camera health analysis (issue: video analysis): analysers on recorded footage, results, verdicts, statistics. */
export function createAnalysisModule(ports: AnalysisPorts): DomainModule<AnalysisPort> {
  const analysis = createAnalysisService(ports);
  return {
    ports: { sweep: analysis.sweep },
    register(app) {
      analysisRoutes(app, {
        analysis,
        resolveTicket: async (auth, ticketId) => {
          const ticket = await ports.ticketUpdates.get(auth, ticketId);
          if (ticket.status === 'RESOLVED' || ticket.status === 'CLOSED') return;
          // Resolved as a consequence of a verdict: the verdict is the record, no activity log entry.
          await ports.ticketUpdates.update(auth, ticketId, { status: 'RESOLVED', version: ticket.version }, null);
        },
      });
      ports.jobs.register(ANALYSIS_QUEUE, async () => analysis.sweep({ budgetMs: SWEEP_BUDGET_MS }), { leaseSeconds: 120 });
      ports.jobs.every(ANALYSIS_QUEUE, SWEEP_EVERY_MS);
    },
  };
}
