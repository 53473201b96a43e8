import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db.ts';
import type { EventBus } from '../../platform/events.ts';
import type { Clock, DomainModule } from '../../platform/module.ts';
import type { DeviceRecords } from '../devices/index.ts';
import type { SystemTickets } from '../helpdesk/ports.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { TelemetryPort } from '../telemetry/index.ts';
import { createExternalAlarms, type ExternalAlarms } from './external.ts';
import { createAlarmRepository } from './repository.ts';
import { alarmRoutes } from './routes.ts';
import { type AlarmService, createAlarmService } from './service.ts';

export type { ExternalAlarm, ExternalAlarms } from './external.ts';
export type { AlarmService, AlarmTicketed } from './service.ts';

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
  /** Alarms raised and cleared by an outside source (SNMP traps), on the same path as the rules' alarms. */
  external: ExternalAlarms;
}

/** Alarm rules and the alarm engine fed by every stored telemetry batch (device health tickets, notifications). */
export function createAlarmsModule(ports: AlarmsPorts): DomainModule<AlarmsPort> {
  const repo = createAlarmRepository(ports.db);
  const alarms = createAlarmService({
    repo,
    devices: ports.devices,
    events: ports.events,
    log: ports.log,
    tickets: ports.tickets,
    directory: ports.directory,
    clock: ports.clock,
  });
  const external = createExternalAlarms({
    repo,
    devices: ports.devices,
    events: ports.events,
    tickets: ports.tickets,
    log: ports.log,
    clock: ports.clock,
    ticketed: (alarm) => alarms.announceTicketed(alarm),
  });
  ports.telemetry.ingest.onBatch(
    (devices) => alarms.onBatch(devices),
    (device) => alarms.watches(device),
  );
  ports.telemetry.runtime.afterSweep(() => alarms.tick());
  return {
    ports: { alarms, external },
    register(app) {
      alarmRoutes(app, { alarms });
      app.addHook('onClose', async () => {
        await alarms.settled();
      });
    },
  };
}
