import { join } from 'node:path';
import { DEVICE_EVENT_TYPES, type DeviceAlarmActionEvent } from '@sitewatch/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.ts';
import { createLocalBlobStore } from '../../platform/blobs.ts';
import type { TicketCreator } from '../devices/service.ts';
import { createActivityService } from './activity-service.ts';
import { actorOf } from './admin-repository.ts';
import { adminRoutes } from './admin-routes.ts';
import { createAdminService } from './admin-service.ts';
import { createEscalationEngine, SWEEP_INTERVAL_MS, SWEEP_QUEUE } from './escalation.ts';
import { ESCALATION_QUEUE } from './escalation-repository.ts';
import { createImportService, IMPORT_QUEUE } from './import-service.ts';
import { createReportService } from './report-service.ts';
import { ticketRoutes } from './ticket-routes.ts';
import { createTicketService, type HelpdeskDeps, type SystemTicketInput } from './ticket-service.ts';

/** What other domains may ask of the helpdesk (installed on the context as `context.helpdesk`). */
export interface HelpdeskPort {
  /** Raises a ticket on the system's behalf (alarms, telemetry rules); with reuseOpen, an open duplicate is returned instead. */
  createTicket(tenantId: number, input: SystemTicketInput): Promise<{ id: number; ticketId: string; reused: boolean }>;
}

const ALARM_SUBJECT: Record<string, string> = {
  maintenance: 'Maintenance mode',
  muteDevice: 'Mute Device mode',
  enableDevice: 'Device',
};

/** Builds the helpdesk services, installs its routes, background jobs and event listeners. */
export function createHelpdesk(
  context: Pick<AppContext, 'db' | 'events' | 'customers' | 'config'> & { directory: () => AppContext['directory'] },
  log: HelpdeskDeps['log'],
) {
  const admin = createAdminService(context.db);
  const deps: HelpdeskDeps = {
    db: context.db,
    events: context.events,
    customers: context.customers,
    directory: context.directory,
    admin,
    log,
  };
  const blobs = createLocalBlobStore(join(context.config.dataDir, 'blobs'));
  const tickets = createTicketService(deps);
  const activity = createActivityService({ ...deps, tickets, blobs });
  const escalation = createEscalationEngine(deps);
  const reports = createReportService({ ...deps, tickets, admin });
  const imports = createImportService({ ...deps, tickets, blobs });
  const port: HelpdeskPort = {
    createTicket: (tenantId, input) => tickets.create(null, tenantId, input, { skipIssueCheck: true, history: 'Raised by the system' }),
  };
  return { admin, tickets, activity, escalation, reports, imports, port };
}

type Helpdesk = ReturnType<typeof createHelpdesk>;
const byServer = new WeakMap<object, Helpdesk>();
/** The helpdesk of a running app (tests and benchmarks drive its sweep directly). */
export const helpdeskOf = (server: object) => byServer.get(server);

export async function helpdeskModule(app: FastifyInstance, context: AppContext) {
  const helpdesk = createHelpdesk({ ...context, directory: () => context.directory }, app.log);
  byServer.set(app.server, helpdesk);
  context.helpdesk = helpdesk.port;
  // The devices module asks for this creator when an alarm action wants a ticket, to answer with its id.
  (context as { alarmTickets?: TicketCreator }).alarmTickets = async (input) =>
    (
      await helpdesk.port.createTicket(input.tenantId, {
        type: 'AlarmTicket',
        title: input.title.slice(0, 250),
        description: input.description,
        event: 'Device Alarm Action',
        entityId: input.deviceId,
        locationId: input.assetId,
        ownerId: input.userId,
      })
    ).id;

  await app.register(async (scope) => ticketRoutes(scope, helpdesk));
  await app.register(async (scope) => adminRoutes(scope, helpdesk));

  // A wake-up escalates whatever is due by then, of every ticket and tenant, in batches.
  context.jobs.register(ESCALATION_QUEUE, async () => helpdesk.escalation.sweep(), { leaseSeconds: 120 });
  context.jobs.register(SWEEP_QUEUE, async () => helpdesk.escalation.sweep(), { leaseSeconds: 120 });
  context.jobs.every(SWEEP_QUEUE, SWEEP_INTERVAL_MS);
  context.jobs.register(IMPORT_QUEUE, (job) => helpdesk.imports.runBulk(job, (tenantId, userId) => actorOf(context.db, tenantId, userId)), {
    leaseSeconds: 120,
  });

  // A device alarm action that asks for a ticket (SPEC 2.14) raises a device health ticket, unless the devices
  // module already raised it through context.helpdesk (then the event carries its id).
  context.events.subscribe((event) => {
    if (event.type !== DEVICE_EVENT_TYPES.alarmAction) return;
    const p = event.payload as DeviceAlarmActionEvent;
    if (!p.createTicket || p.ticketId) return;
    const what = ALARM_SUBJECT[p.telemetryKey] ?? 'Alarm action';
    const state = p.telemetryValue ? 'enabled' : 'disabled';
    void helpdesk.port
      .createTicket(event.tenantId, {
        type: 'AlarmTicket',
        title: `${what} ${state} on ${p.deviceLabel}`.slice(0, 250),
        description: p.description ?? '',
        event: 'Device Alarm Action',
        subEvent: what,
        entityId: p.deviceId,
        locationId: p.assetId ?? null,
        ownerId: p.userId,
        metadata: { telemetryKey: p.telemetryKey, telemetryValue: p.telemetryValue, updatedDeviceIds: p.updatedDeviceIds ?? [] },
      })
      .catch((err) => app.log.error({ err, device: p.deviceId }, 'alarm action ticket not raised'));
  });
}
