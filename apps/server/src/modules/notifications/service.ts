import {
  EVENT_TYPES,
  type InboxItem,
  type InboxQuery,
  type InboxUpdate,
  NOTIFICATION_EVENTS,
  type NotificationMetadata,
} from '@sitewatch/contracts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import * as repo from './repository.ts';

/** Inbox rows are kept this long, read or not. */
export const INBOX_RETENTION_DAYS = 180;
/** Event sent to a user's own sockets when their unread count changed (another tab marked something read). */
export const INBOX_CHANGED = NOTIFICATION_EVENTS.updated;

export function toInboxItem(row: repo.InboxRow): InboxItem {
  return {
    id: row.id,
    uuid: row.uuid,
    isRead: row.is_read,
    createdAt: new Date(row.created_at).toISOString(),
    notification: {
      verb: row.verb,
      message: row.message,
      actor: row.actor_email ? { email: row.actor_email, profile: row.actor_profile ?? {} } : null,
      metadata: row.metadata,
    },
  };
}

export interface Notice {
  verb: string;
  message: string;
  actorId?: number | null;
  metadata: NotificationMetadata;
  /** Handling the same event twice must not notify twice. */
  dedupeKey?: string | null;
}

export function createNotificationService(deps: { db: Db; events: EventBus }) {
  const { db, events } = deps;

  async function announceCount(tenantId: number, userId: number) {
    const unreadCount = await repo.countUnread(db, tenantId, userId);
    events.emit({ type: INBOX_CHANGED, tenantId, userIds: [userId], payload: { unreadCount } });
    return unreadCount;
  }

  return {
    async list(auth: AuthContext, query: InboxQuery) {
      const isRead = query.isRead === undefined ? undefined : query.isRead === 'true';
      const [rows, counts] = await Promise.all([
        repo.listInbox(db, auth.tenantId, auth.userId, {
          offset: (query.page - 1) * query.limit,
          limit: query.limit,
          ascending: query.orderBy === 'createdAt',
          isRead,
        }),
        repo.countInbox(db, auth.tenantId, auth.userId, isRead),
      ]);
      const unreadCount = isRead === undefined ? counts.unread : await repo.countUnread(db, auth.tenantId, auth.userId);
      return { contents: rows.map(toInboxItem), unreadCount, totalCount: counts.total };
    },

    async update(auth: AuthContext, id: number, body: InboxUpdate) {
      const updated = await repo.setRead(db, auth.tenantId, auth.userId, id, body.uuid, body.isRead);
      if (!updated) throw notFound();
      const [row] = await repo.findItems(db, auth.tenantId, auth.userId, [id]);
      if (!row) throw notFound();
      return { item: toInboxItem(row), unreadCount: await announceCount(auth.tenantId, auth.userId) };
    },

    async markAllRead(auth: AuthContext) {
      const updated = await repo.markAllRead(db, auth.tenantId, auth.userId);
      return { updated, unreadCount: await announceCount(auth.tenantId, auth.userId) };
    },

    /**
     * Puts a notification in the inbox of those users who are active users of the tenant (anyone else named is
     * dropped), then pushes it to their sockets. Returns the users who got it.
     */
    async notify(tenantId: number, userIds: Iterable<number>, notice: Notice): Promise<number[]> {
      const wanted = [...new Set(userIds)].filter((id) => Number.isInteger(id) && id > 0);
      const recipients = await repo.activeUsersOfTenant(db, tenantId, wanted);
      if (recipients.length === 0) return [];
      const inserted = await repo.insertNotification(db, tenantId, recipients, {
        verb: notice.verb,
        message: notice.message.slice(0, 1000),
        actorId: notice.actorId ?? null,
        metadata: notice.metadata,
        dedupeKey: notice.dedupeKey ?? null,
      });
      for (const { id, user_id } of inserted) {
        const [row] = await repo.findItems(db, tenantId, user_id, [id]);
        if (!row) continue;
        events.emit({ type: EVENT_TYPES.notificationCreated, tenantId, userIds: [user_id], payload: toInboxItem(row) });
      }
      return inserted.map((r) => r.user_id);
    },

    prune: () => repo.pruneOlderThan(db, new Date(Date.now() - INBOX_RETENTION_DAYS * 86_400_000)),
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
