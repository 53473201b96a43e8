import { TICKET_COLUMNS, type TicketColumn, type TicketFilter, ticketFilterSchema } from '@sitewatch/contracts';
import type { ExportColumnType, ExportScope, ExportSource } from '../downloads/registry.ts';
import type { TicketService } from './ticket-service.ts';

/** SPEC 9: the ticket export reads 100 rows a page, 500 ms apart, at most 10000 rows. */
export const TICKET_EXPORT = { pageSize: 100, pageDelayMs: 500, maxRows: 10_000 } as const;
const ADMIN_ROLES = ['sysadmin', 'customeradmin', 'localadmin'];

type Summary = Awaited<ReturnType<TicketService['list']>>['contents'][number];

const value: Record<TicketColumn, (t: Summary) => unknown> = {
  ticketId: (t) => t.ticketId,
  location: (t) => t.additionalInformation.assetLabel ?? null,
  title: (t) => t.title,
  event: (t) => t.event,
  subEvent: (t) => t.subEvent,
  dueDate: (t) => t.dueDate,
  createdAt: (t) => t.createdAt,
  priority: (t) => t.priority,
  status: (t) => t.status,
  city: (t) => t.city,
  assetType: (t) => t.assetType,
  entity: (t) => t.additionalInformation.deviceLabel ?? t.deviceName,
  description: (t) => t.description,
  resolvedDate: (t) => t.resolvedDate,
  assignedDate: (t) => t.assignedDate,
  acknowledged: (t) => (t.acknowledged ? 'Yes' : 'No'),
  assignee: (t) => t.assignee?.name ?? '',
  updatedAt: (t) => t.updatedAt,
};
const KEYS = Object.keys(TICKET_COLUMNS) as TicketColumn[];
const DATES: ReadonlySet<TicketColumn> = new Set(['dueDate', 'createdAt', 'resolvedDate', 'assignedDate', 'updatedAt']);
const typeOf = (key: TicketColumn): ExportColumnType =>
  key === 'ticketId' ? 'text' : DATES.has(key) ? 'datetime' : key === 'acknowledged' ? 'boolean' : 'text';

/**
 * The ticket list with the filters of the list screen, through the helpdesk's own service (its visibility
 * rules apply: a user exports exactly the tickets the list shows them). Pages are the service's pages.
 */
export function ticketExports(tickets: TicketService): ExportSource<TicketFilter> {
  const actorOf = (scope: ExportScope) => ({ ...scope, permissions: new Set(scope.permissions) });
  return {
    kind: 'tickets',
    label: 'Tickets',
    params: ticketFilterSchema,
    columns: KEYS.map((key) => ({ key, header: TICKET_COLUMNS[key], type: typeOf(key) })),
    allowed: (scope) => scope.roles.some((r) => ADMIN_ROLES.includes(r)) || scope.permissions.includes('view_ticket'),
    ...TICKET_EXPORT,
    async count(scope, params) {
      const page = await tickets.list(actorOf(scope), { ...params, page: 1, limit: 1, orderBy: '-createdAt' });
      return page.totalCount;
    },
    async fetchPage(scope, params, cursor, limit) {
      // The helpdesk pages by number, so every page has the same size; the last one is cut to what is left.
      const page = cursor ? Number(cursor) : 1;
      const size = TICKET_EXPORT.pageSize;
      const result = await tickets.list(actorOf(scope), { ...params, page, limit: size, orderBy: '-createdAt' });
      const rows = result.contents.slice(0, limit).map((t) => Object.fromEntries(KEYS.map((key) => [key, value[key](t)])));
      return { rows, nextCursor: result.contents.length === size ? String(page + 1) : null };
    },
  };
}
