import { z } from 'zod';
import { PUSH_MAX_WATCHED } from './push.ts';

/** Inbox and popup constants of the specification (section 9). */
export const NOTIFICATION_INBOX = {
  pageSize: 10,
  refreshSec: 30,
  minRefreshSec: 3,
  /** Distance in pixels from the end of the list at which the next page loads. */
  scrollOffsetPx: 50,
  scrollDelayMs: 500,
  badgeMax: 99,
} as const;

export const NOTIFICATION_POPUP = {
  autoClose: true,
  autoCloseSec: 10,
} as const;

export const NOTIFICATION_MESSAGES = {
  title: 'Notifications',
  markAllAsRead: 'Mark all as read',
  markAsRead: 'Mark as read',
  markAsUnread: 'Mark as unread',
  empty: 'No notifications yet',
  view: 'View',
  changeToInprogress: 'Change to Inprogress',
  alreadyInProgress: 'Already In Progress',
  close: 'Close',
  closeAll: 'Close All',
  expand: 'Expand',
  collapse: 'Collapse',
} as const;

/** SPEC 3: the subject a notification links to. */
export const notificationDataSchema = z.object({
  id: z.number().int().nullable(),
  priority: z.string().nullable(),
  event: z.string().nullable(),
  status: z.string().nullable(),
  type: z.string().nullable(),
  additionalInformation: z.object({ assetLabel: z.string().nullable() }),
  entityId: z.number().int().nullable(),
  locationId: z.number().int().nullable(),
  /** An alarm's notice: the alarm (a ticket can be raised from it). */
  alarmId: z.number().int().nullable().optional(),
});
export type NotificationData = z.infer<typeof notificationDataSchema>;

export const notificationMetadataSchema = z.object({
  /** In-app link to the subject. */
  url: z.string(),
  /** The same link with the subject's id replaced by `{id}`, so a client can rebuild it for another base. */
  urlMask: z.string(),
  data: notificationDataSchema,
});
export type NotificationMetadata = z.infer<typeof notificationMetadataSchema>;

export const notificationActorSchema = z.object({
  email: z.string(),
  profile: z.record(z.string(), z.unknown()),
});

export const inboxItemSchema = z.object({
  id: z.number().int(),
  uuid: z.uuid(),
  isRead: z.boolean(),
  createdAt: z.string(),
  notification: z.object({
    /** What happened, e.g. `ticket.assigned` or `alarm.raised`. */
    verb: z.string(),
    message: z.string(),
    actor: notificationActorSchema.nullable(),
    metadata: notificationMetadataSchema,
  }),
});
export type InboxItem = z.infer<typeof inboxItemSchema>;

export const inboxQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(NOTIFICATION_INBOX.pageSize),
  orderBy: z.enum(['-createdAt', 'createdAt']).default('-createdAt'),
  isRead: z.enum(['true', 'false']).optional(),
});
export type InboxQuery = z.infer<typeof inboxQuerySchema>;

export const inboxListSchema = z.object({
  contents: z.array(inboxItemSchema),
  unreadCount: z.number().int(),
  totalCount: z.number().int(),
});
export type InboxList = z.infer<typeof inboxListSchema>;

export const inboxUpdateSchema = z.strictObject({
  isRead: z.boolean(),
  uuid: z.uuid(),
});
export type InboxUpdate = z.infer<typeof inboxUpdateSchema>;

export const inboxUpdateResultSchema = z.object({ item: inboxItemSchema, unreadCount: z.number().int() });
export const markAllResultSchema = z.object({ updated: z.number().int(), unreadCount: z.number().int() });

/** Shows at most 99, then '99+' (SPEC 2.7). */
export const badgeText = (count: number) => (count > NOTIFICATION_INBOX.badgeMax ? `${NOTIFICATION_INBOX.badgeMax}+` : String(count));

/**
 * The WebSocket at /ws: the server sends one JSON envelope per event the user may see. `type` is a domain event
 * type (`notification.created`, `ticket.updated`, `alarm.raised`, `job.progress`, ...) or `hello` on connect.
 */
export interface PushEnvelope<T = unknown> {
  type: string;
  data: T;
  /** ISO time the event was published. */
  at: string;
}
/**
 * What a browser may send: a keep-alive the server answers with `{ type: 'pong' }`, or the devices whose live
 * values it shows (replaces the previous list; `device.values` events of other devices are not sent to it).
 */
export const pushClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('watch'), deviceIds: z.array(z.number().int().positive().max(2_147_483_647)).max(PUSH_MAX_WATCHED) }),
]);
export type PushClientMessage = z.infer<typeof pushClientMessageSchema>;
export { PUSH_CLOSE, PUSH_MAX_WATCHED } from './push.ts';

/** Pushed to a user's own sockets: a new inbox item, or their unread count changed (another tab marked). */
export const NOTIFICATION_EVENTS = { created: 'notification.created', updated: 'notification.updated' } as const;

/**
 * Server-side only: many ticket events at once (an escalation sweep), turned into inbox items in a few statements.
 * The envelope names no users and its kind is not broadcast, so it never reaches a browser itself.
 */
export const TICKET_NOTICE_BATCH = 'notices.tickets';
export interface TicketNoticeBatch<P = unknown, T extends string = string> {
  events: Array<{ type: T; userIds: number[]; payload: P }>;
}
