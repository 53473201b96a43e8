import { type AlarmEventPayload, type AlarmSeverity, EVENT_TYPES } from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from '../../platform/events.ts';
import type { Clock } from '../../platform/module.ts';
import type { DeviceFlags, DeviceRecords } from '../devices/index.ts';
import type { SystemTickets } from '../helpdesk/ports.ts';
import { sideEffects } from './engine.ts';
import type { AlarmRepository } from './repository.ts';
import type { AlarmTicketed } from './service.ts';

/** An alarm an outside source (an SNMP trap) raises on a device, under a key of its own. */
export interface ExternalAlarm {
  tenantId: number;
  deviceId: number;
  /** One active alarm per device and key; the clear names the same key. */
  key: string;
  name: string;
  severity: AlarmSeverity;
  message: string;
  createTicket: boolean;
  /** What the source sent, kept on the alarm. */
  raw: unknown;
}

/**
 * The alarms module's port for outside sources: the same alarm path as the rules (device toggles, alarmStatus,
 * device-health ticket, alarm.raised / alarm.cleared events), keyed by the source's key instead of a rule.
 */
export interface ExternalAlarms {
  /** The alarm id, or null when one of the key is active already or the device is disabled or unknown. */
  raise(alarm: ExternalAlarm): Promise<number | null>;
  /** Whether an active alarm of the key was cleared. */
  clear(clear: { tenantId: number; deviceId: number; key: string; raw: unknown }): Promise<boolean>;
}

export function createExternalAlarms(deps: {
  repo: AlarmRepository;
  devices: Pick<DeviceRecords, 'activity'>;
  events: EventBus;
  tickets: SystemTickets;
  log: Pick<FastifyBaseLogger, 'error'>;
  clock: Clock;
  /** Whoever hears of rule alarms that got a ticket hears of these too. */
  ticketed(alarm: AlarmTicketed): void;
}): ExternalAlarms {
  const { repo, events, log } = deps;
  const link = deps.devices.activity;
  const flagsOf = async (tenantId: number, deviceId: number): Promise<DeviceFlags | null> =>
    (await link.flags(tenantId, [deviceId]))[0] ?? null;
  const payloadOf = (alarmId: number, device: DeviceFlags, severity: string, alarmStatus: string, message: string): AlarmEventPayload => ({
    alarmId,
    deviceId: device.id,
    deviceLabel: device.label,
    assetId: device.assetId,
    assetLabel: device.assetLabel,
    severity,
    alarmStatus,
    message,
  });

  return {
    async raise(a) {
      const device = await flagsOf(a.tenantId, a.deviceId);
      if (!device) return null;
      const effects = sideEffects(device);
      if (!effects.evaluate) return null;
      const raised = await repo.raiseExternal({
        tenantId: a.tenantId,
        deviceId: a.deviceId,
        key: a.key,
        name: a.name,
        severity: a.severity,
        message: a.message,
        raw: a.raw,
        suppressedBy: effects.suppressedBy,
      });
      if (raised === null) return null;
      const { row: id, alarmStatus } = raised;
      if (effects.ticket && a.createTicket) {
        try {
          const ticket = await deps.tickets.createTicket(a.tenantId, {
            type: 'AlarmTicket',
            title: `${a.name} on ${device.label}`.slice(0, 250),
            description: a.message,
            event: 'Device Alarm',
            subEvent: a.name,
            entityId: device.id,
            locationId: device.assetId,
            deviceName: device.label,
            metadata: { severity: a.severity, alarmId: id },
            reuseOpen: true,
          });
          if (ticket) {
            await repo.setTicket(id, ticket.id);
            deps.ticketed({
              tenantId: a.tenantId,
              alarmId: id,
              deviceId: device.id,
              assetId: device.assetId,
              ticketId: ticket.id,
              ticketNo: ticket.ticketId,
              raisedAt: deps.clock.now(),
            });
          }
        } catch (error) {
          log.error({ err: error, deviceId: device.id }, 'alarm ticket could not be opened');
        }
      }
      if (effects.notify)
        events.emit({
          type: EVENT_TYPES.alarmRaised,
          tenantId: a.tenantId,
          payload: payloadOf(id, device, a.severity, alarmStatus, a.message),
        });
      return id;
    },
    async clear(c) {
      const device = await flagsOf(c.tenantId, c.deviceId);
      if (!device || !sideEffects(device).evaluate) return false;
      const outcome = await repo.clearExternal(c.tenantId, c.deviceId, c.key, c.raw);
      if (!outcome) return false;
      const { row: cleared, alarmStatus } = outcome;
      if (cleared.suppressed_by === null) {
        events.emit({
          type: EVENT_TYPES.alarmCleared,
          tenantId: c.tenantId,
          payload: payloadOf(cleared.id, device, cleared.severity, alarmStatus, `Cleared: ${cleared.message}`),
        });
      }
      return true;
    },
  };
}
