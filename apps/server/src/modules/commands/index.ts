import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { JobWorker } from '../../platform/jobs/worker.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { TelemetryPort } from '../telemetry/index.ts';
import { createDispatcher, DEADLINE_QUEUE, type Dispatcher } from './dispatcher.ts';
import * as repo from './repository.ts';
import { commandRoutes, deviceRpcRoutes } from './routes.ts';
import { type CommandService, createCommandService, scheduleDeadline } from './service.ts';

export type { DeviceRpcCommand, Dispatcher } from './dispatcher.ts';

export interface CommandsPorts {
  db: Db;
  events: EventBus;
  clock: Clock;
  jobs: JobWorker;
  log: FastifyBaseLogger;
  /** The MQTT broker and the device-token lookup of device ingest. */
  telemetry: TelemetryPort;
  userNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  siteNames(tenantId: number, assetIds: number[]): Promise<Map<number, string>>;
}

export interface CommandsPort {
  service: CommandService;
  dispatcher: Dispatcher;
  /** Runs the deadline sweep now (timeouts and expiry due by the clock). */
  sweep(): Promise<number>;
}

/**
 * Device commands (server-side RPC): the user API, the HTTP device long poll, the MQTT side of the embedded broker
 * (through telemetry's runtime), and the deadline sweep on the job queue.
 */
export function createCommandsModule(ports: CommandsPorts): DomainModule<CommandsPort> {
  const { db, events, clock, jobs, log, telemetry } = ports;
  const service = createCommandService({ db, events, clock, userNames: ports.userNames, siteNames: ports.siteNames });
  const dispatcher = createDispatcher({
    db,
    events,
    clock,
    log,
    runtime: telemetry.runtime,
    changed: (rows) => service.announce(rows),
    scheduleDeadline: (at) => scheduleDeadline(db, at),
  });
  telemetry.runtime.handleRpc(dispatcher.handler);

  async function sweep() {
    const rows = await repo.expireDue(db, clock.now());
    service.announce(rows);
    // claims of a process that died while publishing to the external broker: queued again, and sent
    const released = await repo.releaseClaims(db, null, clock.now());
    for (const tenantId of new Set(released.map((r) => r.tenant_id))) {
      service.dispatch(
        tenantId,
        released.filter((r) => r.tenant_id === tenantId).map((r) => r.device_id),
      );
    }
    return rows.length + released.length;
  }

  return {
    ports: { service, dispatcher, sweep },
    register(app) {
      jobs.register(DEADLINE_QUEUE, async () => ({ changed: await sweep() }));
      // a safety net for deadlines whose wake-up was lost: every minute
      jobs.every(DEADLINE_QUEUE, 60_000);
      const unsubscribe = events.subscribe((event) => {
        if (event.type !== 'rpc.dispatch') return;
        void dispatcher.deliver((event.payload as { deviceIds: number[] }).deviceIds);
      });
      commandRoutes(app, { service });
      deviceRpcRoutes(app, { ingest: telemetry.ingest, dispatcher });
      app.addHook('onClose', async () => unsubscribe());
    },
  };
}
