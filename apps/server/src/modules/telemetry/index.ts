import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import { type DbHandle, openPostgres } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { DomainModule } from '../../platform/module.ts';
import type { DeviceRecords } from '../devices/index.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import { createIngest, type Ingest } from './ingest.ts';
import { createLiveValues } from './live.ts';
import { createRateLimiter } from './rate-limit.ts';
import { createTelemetryRepository } from './repository.ts';
import { deviceApiRoutes, telemetryRoutes } from './routes.ts';
import { createTelemetryRuntime, type TelemetryRuntime } from './runtime.ts';
import { createTelemetryService } from './service.ts';

export type { BatchDevice, Ingest } from './ingest.ts';
export { rateLimited } from './routes.ts';
export type { DeviceApiHandler, DeviceRpcHandler, TelemetryRuntime } from './runtime.ts';

export interface TelemetryPorts {
  database: DbHandle;
  config: Pick<Config, 'host' | 'mqtt' | 'telemetry'>;
  events: EventBus;
  log: FastifyBaseLogger;
  devices: DeviceRecords;
  /** Telemetry of a device is shown only to those who see its site. */
  directory: SiteDirectory;
}

export interface TelemetryPort {
  /** Every stored batch is announced here (the alarm engine listens). */
  ingest: Ingest;
  /** The MQTT side and the background timers: main starts them, tests drive them. */
  runtime: TelemetryRuntime;
  /** The device, if the caller's tenant owns it and the caller sees its site (404 otherwise). */
  visibleDevice(auth: AuthContext, deviceId: number): Promise<{ id: number; asset_id: number | null }>;
  /** A device's client attributes, as it last reported them. */
  clientAttributes(tenantId: number, deviceId: number, keys?: string[]): Promise<Array<{ key: string; value: unknown }>>;
}

/**
 * Telemetry: the HTTP device API, the ingest pipeline and the chart/latest API. The MQTT broker and the background
 * timers start from main (or a test), not here, so that building the app never opens a port.
 */
export function createTelemetryModule(ports: TelemetryPorts): DomainModule<TelemetryPort> {
  const { database, config, events, log, directory } = ports;
  const db = database.db;
  const link = ports.devices.activity;
  const repo = createTelemetryRepository(db);
  // batches are written through connections of their own: one per flusher, one for the latest values
  const ingestDatabase = database.kind === 'pg' && database.url ? openPostgres(database.url, config.telemetry.flushConcurrency + 1) : null;
  const limiter = createRateLimiter({
    defaults: config.telemetry.rateLimits,
    load: (tenantId) => repo.tenantRateLimits(tenantId),
    onError: (error) => log.error({ err: error }, 'reading rate limits failed'),
  });
  const ingest = createIngest({ db, flushDb: ingestDatabase?.db, events, link, repo, log, limiter, settings: config.telemetry });
  const liveValues = createLiveValues({ events });
  ingest.onStored((items) => liveValues.stored(items));
  // a page that read the latest values before the coalesced write (here or in an ingest process of its own) and
  // started watching after the batch's push gets them when they are written
  ingest.onLatestWritten((written) => liveValues.written(written));
  const runtime = createTelemetryRuntime({
    ingest,
    repo,
    log,
    checkTokens: (tokens) => link.liveTokens(tokens),
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
  const service = createTelemetryService({ repo, link, directory, config, limiter, pendingLatest: ingest.pendingLatest });
  return {
    ports: {
      ingest,
      runtime,
      visibleDevice: service.visibleDevice,
      clientAttributes: (tenantId, deviceId, keys) => repo.clientAttributes(tenantId, deviceId, keys),
    },
    register(app) {
      deviceApiRoutes(app, { ingest });
      telemetryRoutes(app, { service, ingest, mqttClients: () => runtime.broker?.clients().length ?? 0 });
      app.addHook('onClose', async () => {
        await runtime.stop();
        liveValues.stop();
        await ingestDatabase?.close();
      });
    },
  };
}
