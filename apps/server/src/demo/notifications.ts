import { EVENT_TYPES } from '@sitewatch/contracts';
import { sql } from 'kysely';
import { ticketMetadata } from '../modules/notifications/subscriptions.ts';
import type { Seeder } from './seeder.ts';

const PER_USER = 8;

/**
 * A lived-in inbox: each user hears about the latest demo tickets assigned to them, some already read. Runs after
 * the helpdesk seeder; without demo tickets it adds nothing.
 */
export const notificationsSeeder: Seeder = {
  name: 'notifications',
  async run({ db, tenantId, random, log }) {
    let tickets: Array<{
      id: number;
      ticket_no: string;
      title: string;
      type: string;
      event: string;
      status: string;
      priority: string;
      location_id: number | null;
      entity_id: number | null;
      assigned_to: number;
      created_by: number | null;
      additional_information: Record<string, unknown>;
      created_at: Date;
    }>;
    try {
      tickets = (
        await sql<(typeof tickets)[number]>`
          select id, ticket_no, title, type, event, status, priority, location_id, entity_id, assigned_to, created_by,
                 additional_information, created_at
          from (
            select t.*, row_number() over (partition by assigned_to order by created_at desc) as n
            from tickets t where t.tenant_id = ${tenantId} and t.assigned_to is not null
          ) ranked
          where n <= ${PER_USER}
          order by created_at`.execute(db)
      ).rows;
    } catch (err) {
      log.warn({ err }, 'no demo tickets to notify about');
      return;
    }
    for (const t of tickets) {
      const info = t.additional_information ?? {};
      const metadata = ticketMetadata({
        id: t.id,
        ticketId: t.ticket_no,
        title: t.title,
        type: t.type,
        event: t.event,
        status: t.status,
        priority: t.priority,
        locationId: t.location_id,
        entityId: t.entity_id,
        assetLabel: typeof info.assetLabel === 'string' ? info.assetLabel : null,
        deviceLabel: typeof info.deviceLabel === 'string' ? info.deviceLabel : null,
        ownerId: t.created_by,
        assignedTo: t.assigned_to,
        watcherIds: [],
        changes: ['assignedTo'],
        historyId: null,
        actorId: t.created_by,
      });
      const row = await db
        .insertInto('notifications')
        .values({
          tenant_id: tenantId,
          verb: EVENT_TYPES.ticketAssigned,
          message: `Ticket ${t.ticket_no} has been assigned to you: ${t.title}`,
          actor_id: t.created_by !== t.assigned_to ? t.created_by : null,
          metadata: JSON.stringify(metadata),
          created_at: t.created_at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const isRead = random.chance(0.6);
      await db
        .insertInto('notification_inbox')
        .values({
          tenant_id: tenantId,
          user_id: t.assigned_to,
          notification_id: row.id,
          is_read: isRead,
          read_at: isRead ? t.created_at : null,
          created_at: t.created_at,
        })
        .execute();
    }
  },
};
