import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.ts';
import { openPostgres } from '../../platform/db.ts';
import { createAlarmRepository } from '../alarms/repository.ts';
import { alarmRoutes } from '../alarms/routes.ts';
import { type AlarmService, type AlarmTicketPort, createAlarmService } from '../alarms/service.ts';
import { createDeviceActivityRepository } from '../devices/activity-repository.ts';
import { createIngest, type Ingest } from './ingest.ts';
import { createLiveValues } from './live.ts';
import { createTelemetryRepository } from './repository.ts';
import { deviceApiRoutes, telemetryRoutes } from './routes.ts';
import { createTelemetryRuntime, type TelemetryRuntime } from './runtime.ts';
import { createTelemetryService } from './service.ts';

/** The alarm engine's ticket port over the helpdesk's (once the helpdesk module installed it on the context). */
function alarmTicketsVia(context: AppContext): AlarmTicketPort | undefined {
  const helpdesk = context.helpdesk;
  if (!helpdesk) return undefined;
  return {
    async openAlarmTicket(input) {
      const ticket = await helpdesk.createTicket(input.tenantId, {
        type: 'AlarmTicket',
        title: input.title,
        description: input.description,
        event: 'Device Alarm',
        subEvent: input.ruleName,
        entityId: input.deviceId,
        locationId: input.assetId,
        deviceName: input.deviceLabel,
        metadata: { severity: input.severity, alarmId: input.alarmId },
        // one open device-health ticket per device and rule: a recurring alarm does not pile up tickets
        reuseOpen: true,
      });
      return { id: ticket.id };
    },
  };
}

export interface TelemetryHandle {
  ingest: Ingest;
  runtime: TelemetryRuntime;
  alarms: AlarmService;
  /** The shared context (its event bus; `helpdesk` once the helpdesk module installs it). */
  context: AppContext;
}

/** Device ingest, the MQTT side and the alarm engine of an app, reached through its HTTP server: main starts MQTT
 * and the timers, tests drive them. */
const byServer = new WeakMap<object, TelemetryHandle>();
export const telemetryOf = (server: object): TelemetryHandle => {
  const handle = byServer.get(server);
  if (!handle) throw new Error('the telemetry module is not registered');
  return handle;
};

/**
 * Telemetry and alarms: the HTTP device API, the ingest pipeline, the chart/latest API, and the alarm engine fed by
 * every stored batch. The MQTT broker and the background timers start from main (or a test), not here, so that
 * building the app never opens a port.
 */
export function telemetryModule(app: FastifyInstance, context: AppContext) {
  const { db, config, events, database } = context;
  const link = createDeviceActivityRepository(db);
  const repo = createTelemetryRepository(db);
  // batches are written through connections of their own: one per flusher, one for the latest values
  const ingestDatabase = database?.kind === 'pg' && database.url ? openPostgres(database.url, config.telemetry.flushConcurrency + 1) : null;
  const ingest = createIngest({ db, flushDb: ingestDatabase?.db, events, link, repo, log: app.log, settings: config.telemetry });
  const alarms = createAlarmService({
    repo: createAlarmRepository(db),
    link,
    events,
    log: app.log,
    helpdesk: () => alarmTicketsVia(context),
    directory: () => context.directory,
  });
  const liveValues = createLiveValues({ events });
  ingest.onStored((items) => liveValues.stored(items));
  ingest.onBatch(
    (devices) => alarms.onBatch(devices),
    (device) => alarms.watches(device),
  );
  const runtime = createTelemetryRuntime({
    ingest,
    repo,
    log: app.log,
    checkTokens: (tokens) => link.liveTokens(tokens),
    afterSweep: () => alarms.tick(),
    settings: {
      host: config.host,
      mqttPort: config.mqtt.port,
      mqttUrl: config.mqtt.url,
      shareGroup: config.mqtt.shareGroup,
      clientId: config.mqtt.clientId,
      retentionDays: config.telemetry.retentionDays,
      tokenRecheckSeconds: config.telemetry.tokenRecheckSeconds,
      inactivityTimeoutSeconds: config.telemetry.inactivityTimeoutSeconds,
      statusSweepSeconds: config.telemetry.statusSweepSeconds,
    },
  });
  byServer.set(app.server, { ingest, runtime, alarms, context });
  const service = createTelemetryService({ repo, link, context });
  deviceApiRoutes(app, { ingest });
  telemetryRoutes(app, { service, ingest, mqttClients: () => runtime.broker?.clients().length ?? 0 });
  alarmRoutes(app, { alarms });
  app.addHook('onClose', async () => {
    await runtime.stop();
    liveValues.stop();
    await alarms.settled();
    await ingestDatabase?.close();
  });
}
