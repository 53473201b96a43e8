import type { NotificationMetadata } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

const itemColumns = ['i.id', 'i.uuid', 'i.is_read', 'i.created_at', 'n.verb', 'n.message', 'n.metadata', 'n.actor_id'] as const;

/** Inbox items of the tenant with their notification (the actor is looked up in the users module's directory). */
const inboxOfTenant = (db: Db, tenantId: number) =>
  db
    .selectFrom('notification_inbox as i')
    .innerJoin('notifications as n', (join) => join.onRef('n.id', '=', 'i.notification_id').onRef('n.tenant_id', '=', 'i.tenant_id'))
    .where('i.tenant_id', '=', tenantId);

const itemQuery = (db: Db, tenantId: number, userId: number) =>
  inboxOfTenant(db, tenantId).select(itemColumns).where('i.user_id', '=', userId);

export type InboxRow = Awaited<ReturnType<ReturnType<typeof itemQuery>['executeTakeFirstOrThrow']>>;

export const listInbox = (
  db: Db,
  tenantId: number,
  userId: number,
  opts: { offset: number; limit: number; ascending: boolean; isRead?: boolean },
) => {
  let query = itemQuery(db, tenantId, userId);
  if (opts.isRead !== undefined) query = query.where('i.is_read', '=', opts.isRead);
  const dir = opts.ascending ? 'asc' : 'desc';
  return query.orderBy('i.created_at', dir).orderBy('i.id', dir).offset(opts.offset).limit(opts.limit).execute();
};

export const findItems = (db: Db, tenantId: number, userId: number, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : itemQuery(db, tenantId, userId).where('i.id', 'in', ids).execute();

export async function countInbox(db: Db, tenantId: number, userId: number, isRead?: boolean) {
  let query = db
    .selectFrom('notification_inbox')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.countAll<number>().filterWhere('is_read', '=', false).as('unread')])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId);
  if (isRead !== undefined) query = query.where('is_read', '=', isRead);
  const row = await query.executeTakeFirstOrThrow();
  return { total: Number(row.total), unread: Number(row.unread) };
}

/** Sets one item read or unread; the id and the uuid must both name the caller's item. */
export const setRead = (db: Db, tenantId: number, userId: number, id: number, uuid: string, isRead: boolean) =>
  db
    .updateTable('notification_inbox')
    .set({ is_read: isRead, read_at: isRead ? sql`now()` : null })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('uuid', '=', uuid)
    .returning('id')
    .executeTakeFirst();

export const markAllRead = (db: Db, tenantId: number, userId: number) =>
  db
    .updateTable('notification_inbox')
    .set({ is_read: true, read_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('is_read', '=', false)
    .executeTakeFirst()
    .then((r) => Number(r.numUpdatedRows));

export interface NewNotification {
  verb: string;
  message: string;
  actorId: number | null;
  metadata: NotificationMetadata;
  dedupeKey: string | null;
  /** Whose inbox it goes to (distinct, checked users). */
  userIds: number[];
}

/**
 * Stores many notifications and their inbox rows in one statement; a notification whose dedupe key is already
 * stored is skipped with its inbox rows. Returns the new inbox rows.
 */
export async function insertNotifications(db: Db, tenantId: number, notices: NewNotification[]) {
  const ords: number[] = [];
  const users: number[] = [];
  notices.forEach((n, i) => {
    for (const userId of n.userIds) {
      ords.push(i + 1);
      users.push(userId);
    }
  });
  if (users.length === 0) return [];
  const result = await sql<{ id: number; user_id: number }>`
    with src as (
      select nextval(pg_get_serial_sequence('notifications', 'id')) as id, s.*
      from unnest(
        ${sql.val(notices.map((n) => n.verb))}::text[], ${sql.val(notices.map((n) => n.message))}::text[],
        ${sql.val(notices.map((n) => n.actorId))}::int[], ${sql.val(notices.map((n) => JSON.stringify(n.metadata)))}::jsonb[],
        ${sql.val(notices.map((n) => n.dedupeKey))}::text[]
      ) with ordinality as s(verb, message, actor_id, metadata, dedupe_key, ord)
    ), ins as (
      insert into notifications (id, tenant_id, verb, message, actor_id, metadata, dedupe_key)
      select id, ${tenantId}, verb, message, actor_id, metadata, dedupe_key from src order by ord
      on conflict (tenant_id, dedupe_key) where dedupe_key is not null do nothing
      returning id
    )
    insert into notification_inbox (tenant_id, user_id, notification_id)
    select ${tenantId}, r.user_id, src.id
    from ins join src on src.id = ins.id
    join unnest(${sql.val(ords)}::bigint[], ${sql.val(users)}::int[]) as r(ord, user_id) on r.ord = src.ord
    order by src.ord
    returning id, user_id
  `.execute(db);
  return result.rows.map((r) => ({ id: Number(r.id), user_id: r.user_id }));
}

/** Inbox items of several users by id (the caller checked whose they are). */
export const itemsOfTenant = (db: Db, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : inboxOfTenant(db, tenantId)
        .select([...itemColumns, 'i.user_id'])
        .where('i.id', 'in', ids)
        .orderBy('i.id')
        .execute();

/** Unread counts of several users at once. */
export async function unreadCounts(db: Db, tenantId: number, userIds: number[]) {
  if (userIds.length === 0) return new Map<number, number>();
  const rows = await db
    .selectFrom('notification_inbox')
    .select(['user_id', (eb) => eb.fn.countAll<number>().as('unread')])
    .where('tenant_id', '=', tenantId)
    .where('user_id', 'in', userIds)
    .where('is_read', '=', false)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, Number(r.unread)]));
}

export const countUnread = async (db: Db, tenantId: number, userId: number) =>
  (await unreadCounts(db, tenantId, [userId])).get(userId) ?? 0;

/** Removes inbox rows older than the cutoff, then notifications no inbox points to any more. */
export async function pruneOlderThan(db: Db, cutoff: Date) {
  const inbox = await db.deleteFrom('notification_inbox').where('created_at', '<', cutoff).executeTakeFirst();
  await db
    .deleteFrom('notifications')
    .where('created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('notification_inbox as i').select('i.id').whereRef('i.notification_id', '=', 'notifications.id'))),
    )
    .execute();
  return Number(inbox.numDeletedRows);
}
