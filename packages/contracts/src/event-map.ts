import type { CalendarChangedPayload, CalendarWindowPayload } from './calendar.ts';
import type { DEVICE_EVENT_TYPES, DeviceAlarmActionEvent } from './devices.ts';
import type { AlarmEventPayload, DeviceValuesPayload, EVENT_TYPES, JobEventPayload, TicketEventPayload } from './events.ts';
import type { InventoryLowStockPayload, InventoryMovedPayload } from './inventory.ts';
import type { InboxItem, NOTIFICATION_EVENTS, PushEnvelope, TICKET_NOTICE_BATCH, TicketNoticeBatch } from './notifications.ts';

/** A device went Online, Offline or Not Connected. */
export interface DeviceStatusEventPayload {
  deviceId: number;
  deviceLabel: string;
  assetId: number | null;
  status: string;
}

/**
 * Every domain event: its type and the payload it carries. The server's event bus, the push hub and the web's
 * realtime topics are typed from this map, so an emitter and its listeners cannot disagree on a payload.
 */
export interface DomainEventMap {
  'ticket.created': TicketEventPayload;
  'ticket.updated': TicketEventPayload;
  'ticket.assigned': TicketEventPayload;
  'ticket.escalated': TicketEventPayload;
  'alarm.raised': AlarmEventPayload;
  'alarm.cleared': AlarmEventPayload;
  'device.status': DeviceStatusEventPayload;
  'device.alarm-action': DeviceAlarmActionEvent;
  'device.changed': { deviceIds: number[] };
  'device.values': DeviceValuesPayload;
  /** A form response was stored (with the tickets its submission raised). */
  'form.submitted': { formTemplate: number; responseId: number; version: number; ticketIds: number[] };
  /** Devices some browser tab shows live: the push hub tells ingest (in every process) whose values to push. */
  'push.watch': { deviceIds: number[]; ttlMs: number; relayed?: boolean };
  'job.progress': JobEventPayload;
  /** A calendar event was created, changed or deleted. */
  'calendar.changed': CalendarChangedPayload;
  /** A maintenance window began or ended on its devices. */
  'calendar.window': CalendarWindowPayload;
  /** Stock moved in a store (inventory screens refetch). */
  'inventory.moved': InventoryMovedPayload;
  /** An item fell below its low-stock threshold in a store (its managers are named). */
  'inventory.low-stock': InventoryLowStockPayload;
  /** A cluster was created, changed or deleted (cluster screens refetch). */
  'cluster.changed': { clusterId: number };
  'notification.created': InboxItem;
  'notification.updated': { unreadCount: number };
  /** Someone checked in or out at a site (or the check-in's snapshot arrived). */
  'attendance.changed': { recordId: number; userId: number; assetId: number; kind: 'check-in' | 'check-out' | 'snapshot' };
  /** Equipment at a site was added, changed or removed. */
  'equipment.changed': { equipmentId: number; assetId: number };
  /** A vendor was created, changed or deleted (vendor screens refetch). */
  'vendor.changed': { vendorId: number };
  /** Many ticket events at once (an escalation sweep): one bus event, each inner event kept. */
  'notices.tickets': TicketNoticeBatch<TicketEventPayload, TicketEventType>;
}

export type TicketEventType = 'ticket.created' | 'ticket.updated' | 'ticket.assigned' | 'ticket.escalated';

export type DomainEventType = keyof DomainEventMap;

/** Every event type constant has its payload in the map (a new constant without one fails to compile). */
type Missing = Exclude<
  | (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES]
  | (typeof DEVICE_EVENT_TYPES)[keyof typeof DEVICE_EVENT_TYPES]
  | (typeof NOTIFICATION_EVENTS)[keyof typeof NOTIFICATION_EVENTS]
  | typeof TICKET_NOTICE_BATCH,
  DomainEventType
>;
export const EVENT_MAP_COMPLETE: [Missing] extends [never] ? true : Missing = true;

/** A domain event as the server's bus carries it: the type decides the payload. */
export type DomainEvent<K extends DomainEventType = DomainEventType> = K extends DomainEventType
  ? {
      type: K;
      tenantId: number;
      /** Users the event concerns; empty means everyone of the tenant allowed to see its subject. */
      userIds?: number[];
      payload: DomainEventMap[K];
    }
  : never;

/** A topic the browser may listen to: an event type, or a prefix of one (`ticket` for every `ticket.*`). */
export type RealtimeTopic = DomainEventType | (DomainEventType extends `${infer P}.${string}` ? P : never);

/** The events a topic (type or prefix) covers. */
export type EventsOfTopic<T extends RealtimeTopic> = T extends DomainEventType ? T : Extract<DomainEventType, `${T}.${string}`>;

/** What the browser receives for an event type. */
export type RealtimeEnvelope<K extends DomainEventType = DomainEventType> = K extends DomainEventType
  ? PushEnvelope<DomainEventMap[K]> & { type: K }
  : never;
