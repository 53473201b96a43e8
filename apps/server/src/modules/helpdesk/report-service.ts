import {
  DEFAULT_PRIORITY_COLOUR,
  TICKET_REPORTS,
  TICKET_STATUS_COLOURS,
  type TicketReport,
  type TicketReportKind,
  type TicketStatus,
} from '@sitewatch/contracts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import { type Actor, isAdmin } from './access.ts';
import type { AdminService } from './admin-service.ts';
import * as repo from './report-repository.ts';
import type { ResolvedFilter, TicketScope } from './ticket-repository.ts';
import type { HelpdeskDeps, TicketService } from './ticket-service.ts';
import { type UserNames, withUserNames } from './user-names.ts';

const DAY = 86_400_000;
const MAX_RANGE_DAYS = 366;

const REPORT_COLUMNS: Record<TicketReportKind, Array<{ key: string; label: string }>> = {
  status: [
    { key: 'status', label: 'Status' },
    { key: 'count', label: 'Tickets' },
    { key: 'share', label: 'Share %' },
    { key: 'avgAgeHours', label: 'Average age (h)' },
  ],
  'issue-type': [
    { key: 'event', label: 'Issue Type' },
    { key: 'total', label: 'Tickets' },
    { key: 'open', label: 'Open' },
    { key: 'resolved', label: 'Resolved' },
    { key: 'avgResolutionHours', label: 'Average resolution (h)' },
  ],
  assignee: [
    { key: 'assignee', label: 'Assignee' },
    { key: 'assigned', label: 'Assigned' },
    { key: 'open', label: 'Open' },
    { key: 'resolved', label: 'Resolved' },
    { key: 'overdue', label: 'Overdue' },
    { key: 'avgResolutionHours', label: 'Average resolution (h)' },
    { key: 'avgRating', label: 'Average rating' },
  ],
  location: [
    { key: 'location', label: 'Location' },
    { key: 'total', label: 'Tickets' },
    { key: 'open', label: 'Open' },
    { key: 'overdue', label: 'Overdue' },
    { key: 'deviceHealth', label: 'Device health' },
  ],
  ageing: [
    { key: 'priority', label: 'Priority' },
    { key: 'under1d', label: '< 1 day' },
    { key: 'd1to3', label: '1–3 days' },
    { key: 'd3to7', label: '3–7 days' },
    { key: 'd7to30', label: '7–30 days' },
    { key: 'over30d', label: '> 30 days' },
    { key: 'total', label: 'Open tickets' },
  ],
  resolution: [
    { key: 'priority', label: 'Priority' },
    { key: 'resolved', label: 'Resolved' },
    { key: 'avgHours', label: 'Average (h)' },
    { key: 'medianHours', label: 'Median (h)' },
    { key: 'withinSlaPercent', label: 'Within due date %' },
  ],
};

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** An assignee as the report names them: "firstname lastname" (spaces trimmed), else the email; 'Unassigned' without one. */
function assigneeName(names: UserNames, id: unknown) {
  const user = typeof id === 'number' ? names.get(id) : undefined;
  if (!user) return 'Unassigned';
  return `${user.firstname} ${user.lastname}`.replace(/^ +| +$/g, '') || user.email;
}

/** The ticket dashboard and the ticket reports: the list's filters and visibility, grouped in SQL. */
export function createReportService(deps: HelpdeskDeps & { tickets: TicketService; admin: AdminService }) {
  const { db } = deps;

  async function scopeAndFilter(
    actor: Actor,
    q: Omit<ResolvedFilter, 'mineOf' | 'search' | 'assignedTo' | 'createdBy'> & {
      assignedTo?: number | 'me' | 'none';
      createdBy?: number | 'me';
    },
  ) {
    const to = q.to ? new Date(q.to) : new Date();
    const from = q.from ? new Date(q.from) : new Date(to.getTime() - 30 * DAY);
    if (from > to) throw badRequest('Please choose an end date greater than the start date');
    if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY) throw badRequest(`A report covers at most ${MAX_RANGE_DAYS} days`);
    const sites = await deps.tickets.sitesOf(actor);
    const scope: TicketScope = {
      userId: actor.userId,
      allSites: sites === 'all',
      assetIds: sites === 'all' ? [] : sites,
      ownOnlyTypes: [],
    };
    const filter: ResolvedFilter = {
      ...q,
      assignedTo: q.assignedTo === 'me' ? actor.userId : q.assignedTo,
      createdBy: q.createdBy === 'me' ? actor.userId : q.createdBy,
      from: from.toISOString(),
      to: to.toISOString(),
    };
    return { scope, filter };
  }

  const mayReport = (actor: Actor) => isAdmin(actor) || actor.permissions.has('view_ticket');

  return {
    async dashboard(actor: Actor, q: Parameters<typeof scopeAndFilter>[1]) {
      if (!mayReport(actor)) throw forbidden();
      const { scope, filter } = await scopeAndFilter(actor, q);
      const { totals, byStatus, byPriority, byType, byEvent, perDay } = await repo.dashboardFigures(db, actor.tenantId, filter, scope);
      const { priorities } = await deps.admin.config(actor.tenantId);
      return {
        total: Number(totals.total),
        open: Number(totals.open),
        overdue: Number(totals.overdue),
        escalated: Number(totals.escalated),
        resolvedInRange: Number(totals.resolved),
        avgResolutionHours: num(totals.avg_hours),
        avgRating: num(totals.avg_rating),
        byStatus: byStatus.map((r) => ({
          key: r.key,
          count: Number(r.count),
          color: TICKET_STATUS_COLOURS[r.key as TicketStatus] ?? DEFAULT_PRIORITY_COLOUR,
        })),
        byPriority: byPriority.map((r) => ({
          key: r.key,
          count: Number(r.count),
          color: priorities.find((p) => p.name === r.key)?.color ?? DEFAULT_PRIORITY_COLOUR,
        })),
        byType: byType.map((r) => ({ key: r.key, count: Number(r.count) })),
        byEvent: byEvent.map((r) => ({ key: r.key, count: Number(r.count) })),
        perDay: perDay.map((r) => ({ day: r.day, created: Number(r.created), resolved: Number(r.resolved) })),
      };
    },

    async report(actor: Actor, kind: TicketReportKind, q: Parameters<typeof scopeAndFilter>[1]): Promise<TicketReport> {
      if (!mayReport(actor)) throw forbidden();
      const { scope, filter } = await scopeAndFilter(actor, q);
      let rows = await repo.reportRows(db, actor.tenantId, kind, filter, scope);
      if (kind === 'assignee') {
        const names = await withUserNames(
          deps.users,
          actor.tenantId,
          rows.map((r) => (typeof r.assignedTo === 'number' ? r.assignedTo : null)),
        );
        rows = rows.map((r) => ({ ...r, assignee: assigneeName(names, r.assignedTo) }));
      }
      const columns = REPORT_COLUMNS[kind];
      return {
        kind,
        title: TICKET_REPORTS[kind],
        columns,
        rows: rows.map((r) =>
          Object.fromEntries(
            columns.map((c) => [c.key, typeof r[c.key] === 'string' || r[c.key] === null ? (r[c.key] ?? null) : num(r[c.key])]),
          ),
        ),
      };
    },
  };
}
export type ReportService = ReturnType<typeof createReportService>;
