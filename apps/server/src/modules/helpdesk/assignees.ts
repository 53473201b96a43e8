import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { siteNameOf } from '../sites/scope.ts';
import type { Actor } from './access.ts';

/** Statuses after which a ticket no longer waits on its assignee. */
const DONE_STATUSES = ['RESOLVED', 'CLOSED'];

export interface AssigneeTicket {
  id: number;
  ticketId: string;
  title: string;
  status: string;
  priority: string | null;
  locationId: number | null;
  locationName: string | null;
  assignedTo: number | null;
  createdAt: string;
  version: number;
}

/**
 * What the people directories ask of the helpdesk about assignees: how many open tickets each person holds, their open
 * tickets, and the open tickets at their sites the caller may see (to assign through the ticket update).
 */
export interface TicketAssignees {
  openCounts(tenantId: number, userIds: number[]): Promise<Map<number, number>>;
  openTickets(
    actor: Actor,
    q: { assignedTo?: number; atSites?: number[]; notAssignedTo?: number; search?: string; limit: number },
  ): Promise<{ rows: AssigneeTicket[]; total: number }>;
}

export function createTicketAssignees(db: Db, sitesOf: (actor: Actor) => Promise<number[] | 'all'>): TicketAssignees {
  return {
    async openCounts(tenantId, userIds) {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('tickets')
        .select(['assigned_to', sql<number>`count(*)::int`.as('n')])
        .where('tenant_id', '=', tenantId)
        .where('assigned_to', 'in', userIds)
        .where('status', 'not in', DONE_STATUSES)
        .groupBy('assigned_to')
        .execute();
      return new Map(rows.map((r) => [r.assigned_to as number, r.n]));
    },
    async openTickets(actor, q) {
      const visible = await sitesOf(actor);
      let sites = q.atSites;
      if (visible !== 'all') {
        const allowed = new Set(visible);
        sites = sites ? sites.filter((id) => allowed.has(id)) : visible;
      }
      if (sites && sites.length === 0) return { rows: [], total: 0 };
      let query = db.selectFrom('tickets as t').where('t.tenant_id', '=', actor.tenantId).where('t.status', 'not in', DONE_STATUSES);
      if (sites) query = query.where('t.location_id', 'in', sites);
      if (q.assignedTo !== undefined) query = query.where('t.assigned_to', '=', q.assignedTo);
      if (q.notAssignedTo !== undefined)
        query = query.where((eb) => eb.or([eb('t.assigned_to', 'is', null), eb('t.assigned_to', '!=', q.notAssignedTo as number)]));
      if (q.search) {
        const p = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) => eb.or([eb('t.title', 'ilike', p), eb('t.ticket_no', 'ilike', p)]));
      }
      const [rows, total] = await Promise.all([
        query
          .select([
            't.id',
            't.ticket_no',
            't.title',
            't.status',
            't.priority',
            't.location_id',
            't.assigned_to',
            't.created_at',
            't.version',
            siteNameOf('t.location_id').as('location_name'),
          ])
          .orderBy('t.created_at', 'desc')
          .orderBy('t.id', 'desc')
          .limit(q.limit)
          .execute(),
        query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        rows: rows.map((r) => ({
          id: r.id,
          ticketId: r.ticket_no,
          title: r.title,
          status: r.status,
          priority: r.priority,
          locationId: r.location_id,
          locationName: r.location_name,
          assignedTo: r.assigned_to,
          createdAt: new Date(r.created_at).toISOString(),
          version: r.version,
        })),
        total: total.n,
      };
    },
  };
}
