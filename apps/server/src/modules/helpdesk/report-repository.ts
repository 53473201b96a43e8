import { sql } from 'kysely';
import type { Db } from '../../platform/db.ts';
import { applyFilter, type ResolvedFilter, type TicketScope } from './ticket-repository.ts';

/** Aggregations of the ticket dashboard and reports, over the same filters and scope as the list. */

const base = (db: Db, tenantId: number, f: ResolvedFilter, scope: TicketScope) =>
  applyFilter(db.selectFrom('tickets as t'), tenantId, f, scope);

const OPEN = sql<boolean>`t.status not in ('RESOLVED', 'CLOSED')`;
const hours = (from: string, to: string) =>
  sql<number | null>`round((avg(extract(epoch from (${sql.ref(to)} - ${sql.ref(from)}))) / 3600)::numeric, 1)`;

export async function dashboardFigures(db: Db, tenantId: number, f: ResolvedFilter, scope: TicketScope) {
  const totals = base(db, tenantId, f, scope)
    .select([
      (eb) => eb.fn.countAll<number>().as('total'),
      sql<number>`count(*) filter (where ${OPEN})`.as('open'),
      sql<number>`count(*) filter (where ${OPEN} and t.sla_breached)`.as('overdue'),
      sql<number>`count(*) filter (where ${OPEN} and (t.status = 'ESCALATE' or t.escalation_level > 0))`.as('escalated'),
      sql<number>`count(*) filter (where t.resolved_date is not null)`.as('resolved'),
      sql<
        number | null
      >`round((avg(extract(epoch from (t.resolved_date - t.created_at))) filter (where t.resolved_date is not null) / 3600)::numeric, 1)`.as(
        'avg_hours',
      ),
      sql<number | null>`round(avg(t.rating)::numeric, 2)`.as('avg_rating'),
    ])
    .executeTakeFirstOrThrow();
  const group = (column: 't.status' | 't.priority' | 't.type' | 't.event', limit: number) =>
    base(db, tenantId, f, scope)
      .select([sql<string>`${sql.ref(column)}`.as('key'), (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy(column)
      .orderBy('count', 'desc')
      .limit(limit)
      .execute();
  // Raised counts on the day a ticket was raised, resolved on the day it was resolved (not on the day it was raised).
  const createdPerDay = base(db, tenantId, f, scope)
    .select([
      sql<string>`to_char(date_trunc('day', t.created_at at time zone 'UTC'), 'YYYY-MM-DD')`.as('day'),
      (eb) => eb.fn.countAll<number>().as('count'),
    ])
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .limit(400)
    .execute();
  const resolvedPerDay = base(db, tenantId, f, scope)
    .where('t.resolved_date', 'is not', null)
    .select([
      sql<string>`to_char(date_trunc('day', t.resolved_date at time zone 'UTC'), 'YYYY-MM-DD')`.as('day'),
      (eb) => eb.fn.countAll<number>().as('count'),
    ])
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .limit(400)
    .execute();
  const perDay = Promise.all([createdPerDay, resolvedPerDay]).then(([created, resolved]) => {
    const days = new Map<string, { day: string; created: number; resolved: number }>();
    const of = (day: string) => days.get(day) ?? days.set(day, { day, created: 0, resolved: 0 }).get(day);
    for (const r of created) (of(r.day) as { created: number }).created = Number(r.count);
    for (const r of resolved) (of(r.day) as { resolved: number }).resolved = Number(r.count);
    return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  });
  const [t, byStatus, byPriority, byType, byEvent, days] = await Promise.all([
    totals,
    group('t.status', 20),
    group('t.priority', 20),
    group('t.type', 10),
    group('t.event', 10),
    perDay,
  ]);
  return { totals: t, byStatus, byPriority, byType, byEvent, perDay: days };
}

export type ReportRow = Record<string, string | number | null>;

export async function reportRows(db: Db, tenantId: number, kind: string, f: ResolvedFilter, scope: TicketScope): Promise<ReportRow[]> {
  const q = base(db, tenantId, f, scope);
  switch (kind) {
    case 'status':
      return q
        .select([
          't.status as status',
          (eb) => eb.fn.countAll<number>().as('count'),
          sql<number>`round(100.0 * count(*) / sum(count(*)) over (), 1)`.as('share'),
          sql<number | null>`round((avg(extract(epoch from (now() - t.created_at))) / 3600)::numeric, 1)`.as('avgAgeHours'),
        ])
        .groupBy('t.status')
        .orderBy('count', 'desc')
        .execute();
    case 'issue-type':
      return q
        .select([
          't.event as event',
          (eb) => eb.fn.countAll<number>().as('total'),
          sql<number>`count(*) filter (where ${OPEN})`.as('open'),
          sql<number>`count(*) filter (where t.resolved_date is not null)`.as('resolved'),
          hours('t.created_at', 't.resolved_date').as('avgResolutionHours'),
        ])
        .groupBy('t.event')
        .orderBy('total', 'desc')
        .limit(200)
        .execute();
    case 'assignee':
      // Per assignee id; the service names them through the users module's directory.
      return q
        .select([
          't.assigned_to as assignedTo',
          (eb) => eb.fn.countAll<number>().as('assigned'),
          sql<number>`count(*) filter (where ${OPEN})`.as('open'),
          sql<number>`count(*) filter (where t.resolved_date is not null)`.as('resolved'),
          sql<number>`count(*) filter (where t.sla_breached)`.as('overdue'),
          hours('t.created_at', 't.resolved_date').as('avgResolutionHours'),
          sql<number | null>`round(avg(t.rating)::numeric, 2)`.as('avgRating'),
        ])
        .groupBy('t.assigned_to')
        .orderBy('assigned', 'desc')
        .limit(500)
        .execute();
    case 'location':
      return q
        .select([
          sql<string>`coalesce(t.additional_information->>'assetLabel', 'No location')`.as('location'),
          (eb) => eb.fn.countAll<number>().as('total'),
          sql<number>`count(*) filter (where ${OPEN})`.as('open'),
          sql<number>`count(*) filter (where t.sla_breached)`.as('overdue'),
          sql<number>`count(*) filter (where t.type = 'AlarmTicket')`.as('deviceHealth'),
        ])
        .groupBy(sql`1`)
        .orderBy('total', 'desc')
        .limit(500)
        .execute();
    case 'ageing':
      return q
        .where(OPEN)
        .select([
          't.priority as priority',
          sql<number>`count(*) filter (where now() - t.created_at < interval '1 day')`.as('under1d'),
          sql<number>`count(*) filter (where now() - t.created_at between interval '1 day' and interval '3 days')`.as('d1to3'),
          sql<number>`count(*) filter (where now() - t.created_at > interval '3 days' and now() - t.created_at <= interval '7 days')`.as(
            'd3to7',
          ),
          sql<number>`count(*) filter (where now() - t.created_at > interval '7 days' and now() - t.created_at <= interval '30 days')`.as(
            'd7to30',
          ),
          sql<number>`count(*) filter (where now() - t.created_at > interval '30 days')`.as('over30d'),
          (eb) => eb.fn.countAll<number>().as('total'),
        ])
        .groupBy('t.priority')
        .orderBy('total', 'desc')
        .execute();
    default:
      return q
        .where('t.resolved_date', 'is not', null)
        .select([
          't.priority as priority',
          (eb) => eb.fn.countAll<number>().as('resolved'),
          hours('t.created_at', 't.resolved_date').as('avgHours'),
          sql<
            number | null
          >`round((percentile_cont(0.5) within group (order by extract(epoch from (t.resolved_date - t.created_at))) / 3600)::numeric, 1)`.as(
            'medianHours',
          ),
          sql<number | null>`round(100.0 * count(*) filter (where t.due_date is null or t.resolved_date <= t.due_date) / count(*), 1)`.as(
            'withinSlaPercent',
          ),
        ])
        .groupBy('t.priority')
        .orderBy('resolved', 'desc')
        .execute();
  }
}
