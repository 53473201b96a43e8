import {
  type AlarmEventPayload,
  EVENT_TYPES,
  type NotificationMetadata,
  nameWithSite,
  TICKET_NOTICE_BATCH,
  type TicketEventPayload,
  type TicketEventType,
} from '@sitewatch/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { DomainEvent, EventBus } from '../../platform/events.ts';
import type { SiteDirectory } from '../sites/directory.ts';
import type { NotificationService, Target } from './service.ts';

/** Where a ticket notification leads: the ticket view link form of SPEC 2.2. */
export const TICKET_URL_MASK = '/tickets/all/view/?ticketId={id}';
export const ALARM_URL_MASK = '/devices/{id}/view';

const fill = (mask: string, id: number) => mask.replace('{id}', String(id));

export function ticketMetadata(p: TicketEventPayload): NotificationMetadata {
  return {
    url: fill(TICKET_URL_MASK, p.id) + (p.historyId ? `&historyId=${p.historyId}` : ''),
    urlMask: TICKET_URL_MASK,
    data: {
      id: p.id,
      priority: p.priority,
      event: p.event,
      status: p.status,
      type: p.type,
      additionalInformation: { assetLabel: p.assetLabel },
      entityId: p.entityId,
      locationId: p.locationId,
    },
  };
}

export function alarmMetadata(p: AlarmEventPayload): NotificationMetadata {
  return {
    url: fill(ALARM_URL_MASK, p.deviceId),
    urlMask: ALARM_URL_MASK,
    data: {
      id: p.deviceId,
      priority: p.severity,
      event: p.message,
      status: p.alarmStatus,
      type: 'ALARM',
      additionalInformation: { assetLabel: p.assetLabel },
      entityId: p.deviceId,
      locationId: p.assetId,
      alarmId: p.alarmId ?? null,
    },
  };
}

type Targets = Target[];

const present = (...ids: Array<number | null | undefined>) => ids.filter((id): id is number => typeof id === 'number');
const without = (ids: Iterable<number>, actor: number | null) => [...new Set(ids)].filter((id) => id !== actor);
const dedupe = (verb: string, p: TicketEventPayload, extra: string | number = '') =>
  p.historyId ? `${verb}:${p.id}:${p.historyId}:${extra}` : null;

/**
 * What a ticket event tells, and to whom: the users the emitter names (the helpdesk names those concerned: owner,
 * assignee, watchers, or an escalation level's list), else the owner, the assignee and the watchers of the payload.
 * The one who made the change never hears about it. Each notice names the kind of event, so that the service
 * leaves out whoever turned that kind (or that ticket type) off in their notification config.
 */
export function ticketTargets(event: DomainEvent<TicketEventType>): Targets {
  const p = event.payload;
  const actor = p.actorId;
  const metadata = ticketMetadata(p);
  const named = event.userIds;
  const audience = without(named ?? [...present(p.ownerId, p.assignedTo), ...p.watcherIds], actor);
  const ticket = (kind: 'created' | 'assigned' | 'updated' | 'escalated') => ({ event: kind, type: p.type });
  const assignee = p.assignedTo !== null && audience.includes(p.assignedTo) ? [p.assignedTo] : [];
  const assigned: Target = {
    userIds: assignee,
    notice: {
      verb: EVENT_TYPES.ticketAssigned,
      message: `Ticket ${p.ticketId} has been assigned to you: ${p.title}`,
      actorId: actor,
      metadata,
      dedupeKey: dedupe(EVENT_TYPES.ticketAssigned, p, p.assignedTo ?? ''),
      ticket: ticket('assigned'),
    },
  };
  switch (event.type) {
    case EVENT_TYPES.ticketCreated:
      return [
        assigned,
        {
          userIds: audience.filter((id) => id !== p.assignedTo),
          notice: {
            verb: EVENT_TYPES.ticketCreated,
            message: `Ticket ${p.ticketId} was raised: ${p.title}`,
            actorId: actor,
            metadata,
            dedupeKey: dedupe(EVENT_TYPES.ticketCreated, p),
            ticket: ticket('created'),
          },
        },
      ];
    case EVENT_TYPES.ticketAssigned:
      // Assigned to a vendor: the helpdesk names the vendor's users.
      if (named && p.changes.includes('vendorId'))
        return [
          {
            userIds: audience,
            notice: {
              verb: EVENT_TYPES.ticketAssigned,
              message: `Ticket ${p.ticketId} has been assigned to your company: ${p.title}`,
              actorId: actor,
              metadata,
              dedupeKey: dedupe(EVENT_TYPES.ticketAssigned, p, `vendor:${p.vendorId ?? ''}`),
              ticket: ticket('assigned'),
            },
          },
        ];
      return [assigned];
    case EVENT_TYPES.ticketUpdated:
      if (!p.changes.includes('status')) return [];
      return [
        {
          userIds: audience,
          notice: {
            verb: EVENT_TYPES.ticketUpdated,
            message: `Ticket ${p.ticketId} status changed to ${p.status}: ${p.title}`,
            actorId: actor,
            metadata,
            dedupeKey: dedupe(`${EVENT_TYPES.ticketUpdated}:status`, p, p.status),
            ticket: ticket('updated'),
          },
        },
      ];
    case EVENT_TYPES.ticketEscalated:
      return [
        {
          userIds: named ? audience : audience.filter((id) => id === p.assignedTo || id === p.ownerId),
          notice: {
            verb: EVENT_TYPES.ticketEscalated,
            message: `Ticket ${p.ticketId} has been escalated: ${p.title}`,
            actorId: actor,
            metadata,
            dedupeKey: dedupe(EVENT_TYPES.ticketEscalated, p),
            ticket: ticket('escalated'),
          },
        },
      ];
    default:
      return [];
  }
}

export async function alarmTargets(event: DomainEvent<'alarm.raised'>, directory: SiteDirectory): Promise<Targets> {
  const p = event.payload;
  const users = new Set(event.userIds ?? []);
  if (p.assetId !== null) for (const id of await directory.usersForAsset(event.tenantId, p.assetId)) users.add(id);
  return [
    {
      userIds: users,
      notice: {
        verb: EVENT_TYPES.alarmRaised,
        message: `${p.severity} alarm on ${nameWithSite(p.deviceLabel, p.assetLabel)}: ${p.message}`,
        metadata: alarmMetadata(p),
      },
    },
  ];
}

/** Where a low-stock notice leads: the item's page. */
export const INVENTORY_URL_MASK = '/inventory-management/{id}/view';
const LOW_STOCK = 'inventory.low-stock';

/** An item fell below its threshold in a store: the store's managers (the event names them) hear of it once. */
export function lowStockTargets(event: DomainEvent<'inventory.low-stock'>): Targets {
  const p = event.payload;
  return [
    {
      userIds: event.userIds ?? [],
      notice: {
        verb: LOW_STOCK,
        message: `Low stock: ${p.name} (${p.code}) in ${p.storeName} is at ${p.onHand}, below ${p.threshold}`,
        metadata: {
          url: fill(INVENTORY_URL_MASK, p.itemId),
          urlMask: INVENTORY_URL_MASK,
          data: {
            id: p.itemId,
            priority: null,
            event: 'Low stock',
            status: null,
            type: 'INVENTORY',
            additionalInformation: { assetLabel: p.storeName },
            entityId: null,
            locationId: p.assetId,
          },
        },
      },
    },
  ];
}

const EXPORT_READY = 'export.ready';

/** A scheduled report's file is ready: its owner hears of it, with a link to /downloads. */
export function exportReadyTargets(event: DomainEvent<'export.ready'>): Targets {
  const p = event.payload;
  return [
    {
      userIds: event.userIds ?? [],
      notice: {
        verb: EXPORT_READY,
        message: `Your report "${p.name}" (${p.format.toUpperCase()}) is ready in Downloads`,
        dedupeKey: `${EXPORT_READY}:${p.jobId}`,
        metadata: {
          url: '/downloads',
          urlMask: '/downloads',
          data: {
            id: p.jobId,
            priority: null,
            event: 'Report ready',
            status: null,
            type: 'REPORT',
            additionalInformation: { assetLabel: null },
            entityId: null,
            locationId: null,
          },
        },
      },
    },
  ];
}

const TICKET_EVENTS = new Set<string>([
  EVENT_TYPES.ticketCreated,
  EVENT_TYPES.ticketAssigned,
  EVENT_TYPES.ticketUpdated,
  EVENT_TYPES.ticketEscalated,
]);

/**
 * Turns domain events into inbox items for the users they concern. Work is chained per tenant so that a burst
 * of events keeps its order, and a failure is logged without touching the service that emitted the event.
 */
export function subscribeNotifications(deps: {
  events: EventBus;
  notifications: NotificationService;
  directory: SiteDirectory;
  log: Pick<FastifyBaseLogger, 'error'>;
}) {
  const queues = new Map<number, Promise<void>>();

  async function handle(event: DomainEvent) {
    let targets: Targets = [];
    if (TICKET_EVENTS.has(event.type)) targets = ticketTargets(event as DomainEvent<TicketEventType>);
    else if (event.type === TICKET_NOTICE_BATCH) {
      targets = event.payload.events
        .filter((e) => TICKET_EVENTS.has(e.type))
        .flatMap((e) => ticketTargets({ type: e.type, tenantId: event.tenantId, userIds: e.userIds, payload: e.payload }));
    } else if (event.type === EVENT_TYPES.alarmRaised) targets = await alarmTargets(event as DomainEvent<'alarm.raised'>, deps.directory);
    else if (event.type === LOW_STOCK) targets = lowStockTargets(event as DomainEvent<'inventory.low-stock'>);
    else if (event.type === EXPORT_READY) targets = exportReadyTargets(event as DomainEvent<'export.ready'>);
    if (targets.length > 0) await deps.notifications.notifyMany(event.tenantId, targets);
  }

  const unsubscribe = deps.events.subscribe((event) => {
    if (
      !TICKET_EVENTS.has(event.type) &&
      event.type !== TICKET_NOTICE_BATCH &&
      event.type !== EVENT_TYPES.alarmRaised &&
      event.type !== LOW_STOCK &&
      event.type !== EXPORT_READY
    )
      return;
    const previous = queues.get(event.tenantId) ?? Promise.resolve();
    const next = previous
      .then(() => handle(event))
      .catch((err) => deps.log.error({ err, type: event.type }, 'notification for event failed'))
      .finally(() => {
        if (queues.get(event.tenantId) === next) queues.delete(event.tenantId);
      });
    queues.set(event.tenantId, next);
  });

  return {
    unsubscribe,
    /** Resolves once every event received so far is handled (tests, shutdown). */
    settled: () => (queues.size === 0 ? Promise.resolve() : Promise.all([...queues.values()]).then(() => undefined)),
  };
}
