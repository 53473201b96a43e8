import { join } from 'node:path';
import { type CustomerSettings, TERMINAL_STATUSES, TICKET_STATUSES } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { createLocalBlobStore } from '../../platform/blobs.ts';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { ExportRegistry } from '../downloads/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { UserDirectory } from '../users/directory.ts';
import { canRaise } from './access.ts';
import { createActivityService } from './activity-service.ts';
import { issueTypesByIds } from './admin-repository.ts';
import { adminRoutes } from './admin-routes.ts';
import { createAdminService } from './admin-service.ts';
import { createTicketAssignees, type TicketAssignees } from './assignees.ts';
import { createTicketDashboardReads, type TicketDashboardReads } from './dashboard-reads.ts';
import { createEscalationEngine, type EscalationEngine, SWEEP_INTERVAL_MS, SWEEP_QUEUE } from './escalation.ts';
import { ESCALATION_QUEUE } from './escalation-repository.ts';
import { ticketExports } from './exports.ts';
import { createImportService, IMPORT_QUEUE } from './import-service.ts';
import { openTicketIds, ticketStates } from './open-tickets.ts';
import type { HelpdeskForVendors, SystemTickets, TicketLinks, TicketVendors } from './ports.ts';
import { createReportService } from './report-service.ts';
import { createHelpdeskSchedule, type HelpdeskSchedule } from './schedule.ts';
import { createTicketLinks } from './ticket-links.ts';
import { openCountsByVendor } from './ticket-repository.ts';
import { ticketRoutes } from './ticket-routes.ts';
import { createTicketService, type TicketService } from './ticket-service.ts';

export type { AssigneeTicket, TicketAssignees } from './assignees.ts';
export type { TicketDashboardReads } from './dashboard-reads.ts';
export type { HelpdeskForVendors, LinkedTicket, SystemTicketInput, SystemTickets, TicketLinks, TicketVendors } from './ports.ts';
export type { DueItem, HelpdeskSchedule } from './schedule.ts';

export interface HelpdeskPorts {
  db: Db;
  events: EventBus;
  jobs: JobWorker;
  log: FastifyBaseLogger;
  dataDir: string;
  /** Tenant settings (ticket rules that depend on the tenant). */
  customers: { settings(tenantId: number): Promise<CustomerSettings> };
  /** Sites and devices: who sees which site, and the labels a ticket carries. */
  directory: SiteDirectory;
  /** Users of the tenant: names, assignees, watchers, and who runs an import. */
  users: UserDirectory;
  exports: ExportRegistry;
  clock: Clock;
  /** The vendors tickets may be assigned to. */
  vendors: TicketVendors;
}

export interface HelpdeskPort {
  /** Raise tickets from other domains (alarms, alarm actions). */
  tickets: SystemTickets;
  /** Open tickets by assignee and at sites (the people directories). */
  assignees: TicketAssignees;
  /** The ticket service (main and benches read lists; tests drive it; attendance moves the caller's tickets). */
  service: TicketService;
  /** Ticket counters and lists of dashboard widgets, within the ticket list's own visibility. */
  dashboardReads: TicketDashboardReads;
  /** The SLA and escalation sweep (tests and benches run it directly instead of waiting for the worker). */
  escalation: EscalationEngine;
  /** Each user's ticket notification config, when they saved one (for the notifications module). */
  notificationPrefs(tenantId: number, userIds: number[]): Promise<Map<number, unknown>>;
  /** Due times for the calendar, and SLA pauses during maintenance windows. */
  schedule: HelpdeskSchedule;
  /** Issue type names and vendors' open tickets, for the vendors directory. */
  forVendors: HelpdeskForVendors;
  /** Tickets the inventory issues stock to. */
  ticketLinks: TicketLinks;
  /** Of these tickets, the ones still open (the video evidence keeps their footage while they are). */
  openTickets(tenantId: number, ids: number[]): Promise<Set<number>>;
  /** A comment on a ticket as the actor (who must see it): device diagnostics results. */
  addComment(
    actor: { userId: number; tenantId: number; roles: string[]; permissions: Set<string> },
    id: number,
    text: string,
  ): Promise<void>;
}

/** The helpdesk: tickets, their activity, administration, reports, imports, SLA escalation, and the ticket export. */
export function createHelpdeskModule(ports: HelpdeskPorts): DomainModule<HelpdeskPort> {
  const { db, events, jobs, log } = ports;
  const admin = createAdminService(db, ports.users);
  const deps = {
    db,
    events,
    customers: ports.customers,
    directory: ports.directory,
    users: ports.users,
    admin,
    log,
    clock: ports.clock,
    vendors: ports.vendors,
  };
  const blobs = createLocalBlobStore(join(ports.dataDir, 'blobs'));
  const tickets = createTicketService(deps);
  const activity = createActivityService({ ...deps, tickets, blobs });
  const escalation = createEscalationEngine(deps);
  const reports = createReportService({ ...deps, tickets, admin });
  const imports = createImportService({ ...deps, tickets, blobs });
  const helpdesk = { admin, tickets, activity, escalation, reports, imports };
  ports.exports.registerSource(ticketExports(tickets));
  return {
    ports: {
      tickets: {
        createTicket: (tenantId, input) => tickets.create(null, tenantId, input, { skipIssueCheck: true, history: 'Raised by the system' }),
        async raiseFor(actor, input, history) {
          const { priorities } = await admin.config(actor.tenantId);
          const priority = input.priority && priorities.some((p) => p.name === input.priority) ? input.priority : undefined;
          return tickets.create(actor, actor.tenantId, { ...input, priority }, { skipIssueCheck: true, history });
        },
        mayRaise: canRaise,
        states: (tenantId, ids) => ticketStates(db, tenantId, ids),
      },
      assignees: createTicketAssignees(db, tickets.sitesOf),
      service: tickets,
      dashboardReads: createTicketDashboardReads(db, tickets.visibility),
      escalation,
      notificationPrefs: admin.notificationPrefs,
      schedule: createHelpdeskSchedule(db, ports.directory),
      ticketLinks: createTicketLinks(tickets),
      openTickets: (tenantId, ids) => openTicketIds(db, tenantId, ids),
      addComment: async (actor, id, text) => {
        await activity.addComment(actor, id, text);
      },
      forVendors: {
        issueTypes: (tenantId, ids) => issueTypesByIds(db, tenantId, ids),
        openTicketCounts: (tenantId, vendorIds) => openCountsByVendor(db, tenantId, vendorIds),
        openTickets: (actor, vendorId, page) =>
          tickets.list(actor, {
            type: 'all',
            vendor: vendorId,
            status: TICKET_STATUSES.filter((s) => !TERMINAL_STATUSES.includes(s)),
            dateField: 'createdAt',
            orderBy: '-createdAt',
            page: page.page,
            limit: page.limit,
          }),
      },
    },
    async register(app) {
      await app.register(async (scope) => ticketRoutes(scope, helpdesk));
      await app.register(async (scope) => adminRoutes(scope, helpdesk));
      // A wake-up escalates whatever is due by then, of every ticket and tenant, in batches.
      jobs.register(ESCALATION_QUEUE, async () => escalation.sweep(), { leaseSeconds: 120 });
      jobs.register(SWEEP_QUEUE, async () => escalation.sweep(), { leaseSeconds: 120 });
      jobs.every(SWEEP_QUEUE, SWEEP_INTERVAL_MS);
      jobs.register(IMPORT_QUEUE, (job) => imports.runBulk(job, (tenantId, userId) => ports.users.actor(tenantId, userId)), {
        leaseSeconds: 120,
      });
    },
  };
}
