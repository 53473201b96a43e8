import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { allOf, matching, type TimeRange, type ValueFilter, withinRange, withinSites } from '../../platform/sql-lists.ts';
import { siteNameOf } from '../sites/scope.ts';
import type { Actor } from './access.ts';
import { type TicketScope as Visibility, visibleTo } from './ticket-repository.ts';

/**
 * Which tickets a dashboard widget counts or lists: those its viewer (or a link's creator) sees in the ticket list,
 * narrowed by sites, typed filters and a creation time range.
 */
export interface TicketScope {
  tenantId: number;
  /** Whose ticket visibility applies: the viewer, or a shared link's creator. */
  actor: Actor;
  /** Sites the widget or a link's conditions narrow to (`all`: no narrowing beyond the actor's visibility). */
  sites: number[] | 'all';
  types: ValueFilter;
  statuses: ValueFilter;
  priorities: ValueFilter;
  /** Tickets raised on these devices only (a device condition of a shared link). */
  entities: ValueFilter;
  range: TimeRange | null;
}

const whereOf = (s: TicketScope, visible: Visibility): Expression<SqlBool> =>
  allOf([
    sql<boolean>`t.tenant_id = ${s.tenantId}`,
    ...visibleTo(visible),
    withinSites('t.location_id', s.sites),
    ...matching('t.type', s.types),
    ...matching('t.status', s.statuses),
    ...matching('t.priority', s.priorities),
    ...matching('t.entity_id', s.entities),
    withinRange('t.created_at', s.range),
  ]);

/** Reads of tickets for dashboard widgets (bounded, typed filters, tenant-scoped). */
export function createTicketDashboardReads(db: Db, visibility: (actor: Actor) => Promise<Visibility>) {
  return {
    async countsByStatus(s: TicketScope) {
      const where = whereOf(s, await visibility(s.actor));
      const { rows } = await sql<{ status: string; n: number }>`
        select t.status, count(*)::int as n from tickets t where ${where} group by t.status`.execute(db);
      return rows;
    },
    async list(s: TicketScope, limit: number) {
      const where = whereOf(s, await visibility(s.actor));
      const { rows } = await sql<{
        id: number;
        ticket_no: string;
        title: string;
        status: string;
        priority: string;
        type: string;
        location_id: number | null;
        site_name: string | null;
        created_at: Date;
      }>`
        select t.id, t.ticket_no, t.title, t.status, t.priority, t.type, t.location_id, ${siteNameOf('t.location_id')} as site_name, t.created_at
        from tickets t where ${where} order by t.created_at desc, t.id desc limit ${limit}`.execute(db);
      const { rows: count } = await sql<{ n: number }>`select count(*)::int as n from tickets t where ${where}`.execute(db);
      return { rows, totalCount: count[0]?.n ?? 0 };
    },
  };
}
export type TicketDashboardReads = ReturnType<typeof createTicketDashboardReads>;
