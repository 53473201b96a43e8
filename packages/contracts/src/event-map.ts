import type { CalendarChangedPayload, CalendarWindowPayload } from './calendar.ts';
import type { CommandUpdatedPayload } from './commands.ts';
import type { DashboardChangedPayload } from './dashboards.ts';
import type { AccessEventPayload } from './device-ops.ts';
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
  /** A camera's health by the video analysis changed (video lost or back): site summaries refetch. */
  'device.health': { deviceId: number; assetId: number | null; videoLost: boolean };
  'device.values': DeviceValuesPayload;
  /** A door or reader reported an access event (granted, denied, forced, held open, opened remotely). */
  'device.access-event': AccessEventPayload;
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
  /** A purchase request was raised or moved on (purchase request screens refetch). */
  'purchase-request.changed': { prId: number; state: string; assetId: number | null };
  /** A background export asked to be announced (a scheduled report) is ready on /downloads. */
  'export.ready': { jobId: number; kind: string; name: string; format: string };
  /** A cluster was created, changed or deleted (cluster screens refetch). */
  'cluster.changed': { clusterId: number };
  'notification.created': InboxItem;
  'notification.updated': { unreadCount: number };
  /** Someone checked in or out at a site (or the check-in's snapshot arrived). */
  'attendance.changed': { recordId: number; userId: number; assetId: number; kind: 'check-in' | 'check-out' | 'snapshot' };
  /** Equipment at a site was added, changed or removed. */
  'equipment.changed': { equipmentId: number; assetId: number };
  'dashboard.changed': DashboardChangedPayload;
  /** Server-side only: commands wait for these devices; the process holding their connection sends them. */
  'rpc.dispatch': { deviceIds: number[]; relayed?: boolean };
  /** A device command changed state (queued, sent, delivered, …). */
  'command.updated': CommandUpdatedPayload;
  /** A vendor was created, changed or deleted (vendor screens refetch). */
  'vendor.changed': { vendorId: number };
  /** A ticket's video evidence was added, cut, or pinned/unpinned (its ticket page refetches). */
  'video-evidence.changed': { ticketId: number; assetId: number | null };
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
