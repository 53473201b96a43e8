/**
 * Domain events that services emit on the server's event bus and the push hub forwards to browsers.
 * `userIds` on the envelope names the users an event concerns (see apps/server/src/platform/events.ts).
 */
export interface TicketEventPayload {
  id: number;
  ticketId: string;
  title: string;
  type: string;
  /** The issue type (SPEC 3 Ticket.event). */
  event: string | null;
  status: string;
  priority: string;
  locationId: number | null;
  entityId: number | null;
  assetLabel: string | null;
  deviceLabel: string | null;
  ownerId: number | null;
  assignedTo: number | null;
  /** The vendor the ticket is assigned to (its users hear of an assignment to it). */
  vendorId?: number | null;
  watcherIds: number[];
  /** Field names that changed, for ticket.updated. */
  changes: string[];
  historyId: number | null;
  actorId: number | null;
}

export interface AlarmEventPayload {
  /** The alarm raised or cleared. */
  alarmId?: number;
  deviceId: number;
  deviceLabel: string;
  assetId: number | null;
  assetLabel: string | null;
  severity: string;
  alarmStatus: string;
  message: string;
}

/** `device.values`: the newest value of each key the device sent since its previous event. */
export interface DeviceValuesPayload {
  deviceId: number;
  assetId: number | null;
  values: Array<{ key: string; ts: number; value: number | string | boolean | null }>;
}

export interface JobEventPayload {
  jobId: number;
  kind: string;
  status: string;
  progress: number;
}

export const EVENT_TYPES = {
  ticketCreated: 'ticket.created',
  ticketUpdated: 'ticket.updated',
  ticketAssigned: 'ticket.assigned',
  ticketEscalated: 'ticket.escalated',
  alarmRaised: 'alarm.raised',
  alarmCleared: 'alarm.cleared',
  deviceStatus: 'device.status',
  /** The newest telemetry of a device someone watches, at most one event per device every 500 ms. */
  deviceValues: 'device.values',
  jobProgress: 'job.progress',
  notificationCreated: 'notification.created',
  /** A ticket's video evidence was added, cut, or pinned/unpinned. */
  videoEvidence: 'video-evidence.changed',
} as const;
