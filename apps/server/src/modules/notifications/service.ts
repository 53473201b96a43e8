import {
  EVENT_TYPES,
  type InboxItem,
  type InboxQuery,
  type InboxUpdate,
  NOTIFICATION_EVENTS,
  type NotificationMetadata,
  type TICKET_NOTIFICATION_EVENTS,
  ticketNotificationPrefsSchema,
} from '@sitewatch/contracts';
import type { AuthContext } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { EventBus } from '../../platform/events.ts';
import { type DirectoryUserById, type UserDirectory, usersById } from '../users/directory.ts';
import * as repo from './repository.ts';

/** Inbox rows are kept this long, read or not. */
export const INBOX_RETENTION_DAYS = 180;
/** Event sent to a user's own sockets when their unread count changed (another tab marked something read). */
export const INBOX_CHANGED = NOTIFICATION_EVENTS.updated;
/**
 * A user who gets more new items than this at once (an escalation sweep) is sent one unread-count change instead
 * of a live popup per item; the bell then fetches the inbox.
 */
export const POPUP_BURST = 5;

const DEFAULT_TICKET_CONFIG = ticketNotificationPrefsSchema.parse({});
const ticketConfigOf = (value: unknown) =>
  value ? ticketNotificationPrefsSchema.catch(DEFAULT_TICKET_CONFIG).parse(value) : DEFAULT_TICKET_CONFIG;

/** Who acted on the notifications, by user id (from the users module's directory). */
type Actors = Map<number, Pick<DirectoryUserById, 'email' | 'profile'>>;

export function toInboxItem(row: repo.InboxRow, actors: Actors): InboxItem {
  const actor = row.actor_id === null ? undefined : actors.get(row.actor_id);
  return {
    id: row.id,
    uuid: row.uuid,
    isRead: row.is_read,
    createdAt: new Date(row.created_at).toISOString(),
    notification: {
      verb: row.verb,
      message: row.message,
      actor: actor?.email ? { email: actor.email, profile: actor.profile ?? {} } : null,
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
  /** A ticket notice: reaches only the users whose notification config wants this kind of event for this ticket type. */
  ticket?: { event: (typeof TICKET_NOTIFICATION_EVENTS)[number]; type: string };
}

/** A notice and the users it is meant for. */
export interface Target {
  userIds: Iterable<number>;
  notice: Notice;
}

export interface NotificationServiceDeps {
  db: Db;
  events: EventBus;
  /** Only active users of the tenant receive anything (the users module's directory). */
  users: Pick<UserDirectory, 'byIds'>;
  /** Each user's ticket notification config, when they saved one (the helpdesk keeps it with their list prefs). */
  ticketPrefs(tenantId: number, userIds: number[]): Promise<Map<number, unknown>>;
}

export function createNotificationService(deps: NotificationServiceDeps) {
  const { db, events } = deps;

  /** Tells each user's own sockets their unread count; returns the counts. */
  async function announceCounts(tenantId: number, userIds: number[]) {
    const counts = await repo.unreadCounts(db, tenantId, userIds);
    for (const userId of userIds) {
      events.emit({ type: INBOX_CHANGED, tenantId, userIds: [userId], payload: { unreadCount: counts.get(userId) ?? 0 } });
    }
    return counts;
  }
  const announceCount = async (tenantId: number, userId: number) => (await announceCounts(tenantId, [userId])).get(userId) ?? 0;

  /** The actors of these inbox rows, in one lookup. */
  const actorsOf = (tenantId: number, rows: Array<{ actor_id: number | null }>): Promise<Actors> =>
    usersById(
      deps.users,
      tenantId,
      rows.map((r) => r.actor_id),
    );

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
      const [unreadCount, actors] = await Promise.all([
        isRead === undefined ? counts.unread : repo.countUnread(db, auth.tenantId, auth.userId),
        actorsOf(auth.tenantId, rows),
      ]);
      return { contents: rows.map((row) => toInboxItem(row, actors)), unreadCount, totalCount: counts.total };
    },

    async update(auth: AuthContext, id: number, body: InboxUpdate) {
      const updated = await repo.setRead(db, auth.tenantId, auth.userId, id, body.uuid, body.isRead);
      if (!updated) throw notFound();
      const [row] = await repo.findItems(db, auth.tenantId, auth.userId, [id]);
      if (!row) throw notFound();
      const [actors, unreadCount] = await Promise.all([actorsOf(auth.tenantId, [row]), announceCount(auth.tenantId, auth.userId)]);
      return { item: toInboxItem(row, actors), unreadCount };
    },

    async markAllRead(auth: AuthContext) {
      const updated = await repo.markAllRead(db, auth.tenantId, auth.userId);
      return { updated, unreadCount: await announceCount(auth.tenantId, auth.userId) };
    },

    /**
     * Puts notifications in the inboxes of the users they name, in a few statements however many there are, then
     * pushes them. This is the one place that decides who gets what: only active users of the tenant (anyone else
     * named is dropped), and for ticket notices only those whose notification config wants that kind of event for
     * that type of ticket. A user who gets many at once is sent one unread-count change instead of each item.
     * Returns the users who got something.
     */
    async notifyMany(tenantId: number, targets: Target[]): Promise<number[]> {
      const named = targets.map((t) => [...new Set(t.userIds)].filter((id) => Number.isInteger(id) && id > 0));
      const ids = [...new Set(named.flat())];
      const [users, prefs] = await Promise.all([deps.users.byIds(tenantId, ids), deps.ticketPrefs(tenantId, ids)]);
      const config = new Map(users.filter((u) => u.isActive).map((u) => [u.id, ticketConfigOf(prefs.get(u.id))]));
      const notices = targets.flatMap((t, i) => {
        const ticket = t.notice.ticket;
        const userIds = (named[i] ?? []).filter((id) => {
          const c = config.get(id);
          return c !== undefined && (!ticket || (c.events[ticket.event] && (c.types as string[]).includes(ticket.type)));
        });
        if (userIds.length === 0) return [];
        const n = t.notice;
        return [
          {
            verb: n.verb,
            message: n.message.slice(0, 1000),
            actorId: n.actorId ?? null,
            metadata: n.metadata,
            dedupeKey: n.dedupeKey ?? null,
            userIds,
          },
        ];
      });
      const inserted = await repo.insertNotifications(db, tenantId, notices);
      const byUser = new Map<number, number[]>();
      for (const { id, user_id } of inserted) {
        const ids = byUser.get(user_id);
        if (ids) ids.push(id);
        else byUser.set(user_id, [id]);
      }
      const one = [...byUser.values()].filter((ids) => ids.length <= POPUP_BURST).flat();
      const rows = await repo.itemsOfTenant(db, tenantId, one);
      const actors = await actorsOf(tenantId, rows);
      for (const row of rows) {
        events.emit({ type: EVENT_TYPES.notificationCreated, tenantId, userIds: [row.user_id], payload: toInboxItem(row, actors) });
      }
      const many = [...byUser].filter(([, ids]) => ids.length > POPUP_BURST).map(([userId]) => userId);
      await announceCounts(tenantId, many);
      return [...byUser.keys()];
    },

    prune: () => repo.pruneOlderThan(db, new Date(Date.now() - INBOX_RETENTION_DAYS * 86_400_000)),
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;
