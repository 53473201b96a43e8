import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { DeviceRecords } from '../devices/index.ts';
import type { SystemTickets } from '../helpdesk/ports.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { TelemetryPort } from '../telemetry/index.ts';
import { createAlarmRepository } from './repository.ts';
import { alarmRoutes } from './routes.ts';
import { type AlarmService, createAlarmService } from './service.ts';

export type { AlarmService } from './service.ts';

export interface AlarmsPorts {
  db: Db;
  events: EventBus;
  log: FastifyBaseLogger;
  clock: Clock;
  devices: DeviceRecords;
  /** Every stored telemetry batch, and the status sweep the pending timers ride on. */
  telemetry: TelemetryPort;
  tickets: SystemTickets;
  directory: SiteDirectory;
}

export interface AlarmsPort {
  alarms: AlarmService;
}

/** Alarm rules and the alarm engine fed by every stored telemetry batch (device health tickets, notifications). */
export function createAlarmsModule(ports: AlarmsPorts): DomainModule<AlarmsPort> {
  const alarms = createAlarmService({
    repo: createAlarmRepository(ports.db),
    devices: ports.devices,
    events: ports.events,
    log: ports.log,
    tickets: ports.tickets,
    directory: ports.directory,
    clock: ports.clock,
  });
  ports.telemetry.ingest.onBatch(
    (devices) => alarms.onBatch(devices),
    (device) => alarms.watches(device),
  );
  ports.telemetry.runtime.afterSweep(() => alarms.tick());
  return {
    ports: { alarms },
    register(app) {
      alarmRoutes(app, { alarms });
      app.addHook('onClose', async () => {
        await alarms.settled();
      });
    },
  };
}
