import type { NotificationMetadata } from '@sitewatch/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';

const itemColumns = [
  'i.id',
  'i.uuid',
  'i.is_read',
  'i.created_at',
  'n.verb',
  'n.message',
  'n.metadata',
  'a.email as actor_email',
  'a.profile as actor_profile',
] as const;

const itemQuery = (db: Db, tenantId: number, userId: number) =>
  db
    .selectFrom('notification_inbox as i')
    .innerJoin('notifications as n', (join) => join.onRef('n.id', '=', 'i.notification_id').onRef('n.tenant_id', '=', 'i.tenant_id'))
    .leftJoin('users as a', (join) => join.onRef('a.id', '=', 'n.actor_id').onRef('a.tenant_id', '=', 'n.tenant_id'))
    .select(itemColumns)
    .where('i.tenant_id', '=', tenantId)
    .where('i.user_id', '=', userId);

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

export async function countUnread(db: Db, tenantId: number, userId: number) {
  const row = await db
    .selectFrom('notification_inbox')
    .select((eb) => eb.fn.countAll<number>().as('unread'))
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('is_read', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.unread);
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

/** Of the given users, the active ones of this tenant: an event can never reach another tenant's user. */
export const activeUsersOfTenant = async (db: Db, tenantId: number, userIds: number[]) =>
  userIds.length === 0
    ? []
    : (
        await db
          .selectFrom('users')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', userIds)
          .where('is_active', '=', true)
          .execute()
      ).map((r) => r.id);

export interface NewNotification {
  verb: string;
  message: string;
  actorId: number | null;
  metadata: NotificationMetadata;
  dedupeKey: string | null;
}

/** Stores a notification and its inbox rows; returns the inbox ids by user, or none when it was a duplicate. */
export async function insertNotification(db: Db, tenantId: number, userIds: number[], n: NewNotification) {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('notifications')
      .values({
        tenant_id: tenantId,
        verb: n.verb,
        message: n.message,
        actor_id: n.actorId,
        metadata: JSON.stringify(n.metadata),
        dedupe_key: n.dedupeKey,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'dedupe_key']).where('dedupe_key', 'is not', null).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) return [];
    return tx
      .insertInto('notification_inbox')
      .values(userIds.map((userId) => ({ tenant_id: tenantId, user_id: userId, notification_id: row.id })))
      .returning(['id', 'user_id'])
      .execute();
  });
}

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
