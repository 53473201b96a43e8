import { DEFAULT_PRIORITY_COLOUR } from '@sitewatch/contracts/constants';
import { TICKET_COLUMNS, type TicketColumn } from '@sitewatch/contracts/helpdesk/admin';
import {
  TICKET_LIMITS,
  TICKET_STATUS_COLOURS,
  TICKET_STATUSES,
  TICKET_TYPES,
  type TicketStatus,
  type TicketSummary,
  type TicketType,
} from '@sitewatch/contracts/helpdesk/tickets';
import { formatDateTime } from '../../../lib/format.ts';

/** Pure helpers of the ticket screens: what a column shows, dates and ranges, grouping by day, links. */

export type ListType = TicketType | 'all';
export const isListType = (value: string | undefined): value is ListType =>
  value === 'all' || (TICKET_TYPES as readonly string[]).includes(value ?? '');

export const statusColour = (status: string) => TICKET_STATUS_COLOURS[status as TicketStatus] ?? DEFAULT_PRIORITY_COLOUR;
/** SPEC 3: a priority's colour by name from the configured list, grey when it is not there. */
export const priorityColour = (priorities: { name: string; color: string }[] | undefined, name: string) =>
  priorities?.find((p) => p.name === name)?.color ?? DEFAULT_PRIORITY_COLOUR;

/** The plain-text value of a column for a ticket: the table cell, the compact view and the CSV export. */
export function columnText(column: TicketColumn, t: TicketSummary): string {
  switch (column) {
    case 'ticketId':
      return t.ticketId;
    case 'location':
      return t.additionalInformation.assetLabel ?? '';
    case 'title':
      return t.title;
    case 'event':
      return t.event;
    case 'subEvent':
      return t.subEvent ?? '';
    case 'dueDate':
      return formatDateTime(t.dueDate);
    case 'createdAt':
      return formatDateTime(t.createdAt);
    case 'priority':
      return t.priority;
    case 'status':
      return t.status;
    case 'city':
      return t.city ?? '';
    case 'assetType':
      return t.assetType ?? '';
    case 'entity':
      return t.additionalInformation.deviceLabel ?? t.deviceName ?? '';
    case 'description':
      return t.description;
    case 'resolvedDate':
      return formatDateTime(t.resolvedDate);
    case 'assignedDate':
      return formatDateTime(t.assignedDate);
    case 'acknowledged':
      return t.acknowledged ? 'Yes' : 'No';
    case 'assignee':
      return t.assignee?.name ?? '';
    case 'updatedAt':
      return formatDateTime(t.updatedAt);
  }
}

/** The sort key of the list API for a column, when the column can be sorted on the server. */
export const SORTABLE: Partial<Record<TicketColumn, string>> = {
  ticketId: 'ticketId',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  dueDate: 'dueDate',
  priority: 'priority',
  status: 'status',
};

export const ALL_COLUMNS = Object.keys(TICKET_COLUMNS) as TicketColumn[];
export const columnLabel = (c: TicketColumn) => TICKET_COLUMNS[c];

// Date ranges --------------------------------------------------------------------------------------------------

export const DATE_PRESETS = [
  { key: 'last24h', label: 'Last 24 hours', hours: 24 },
  { key: 'last7d', label: 'Last 7 days', hours: 24 * 7 },
  { key: 'last30d', label: 'Last 30 days', hours: 24 * 30 },
  { key: 'last3m', label: 'Last 3 months', hours: 24 * 91 },
  { key: 'last6m', label: 'Last 6 months', hours: 24 * 182 },
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number]['key'] | 'custom';

export interface DateRange {
  preset: DatePreset;
  from: string;
  to: string;
}

/** The range a preset means now (to is "now", rounded to the minute so the query key stays stable). */
export function presetRange(preset: Exclude<DatePreset, 'custom'>, now = Date.now()): DateRange {
  const hours = DATE_PRESETS.find((p) => p.key === preset)?.hours ?? 24;
  const to = Math.ceil(now / 60_000) * 60_000;
  return { preset, from: new Date(to - hours * 3600_000).toISOString(), to: new Date(to).toISOString() };
}

/** Months between two dates as the calendar counts them (SPEC 9 monthRange 6). */
export function exceedsMonths(from: string, to: string, months: number = TICKET_LIMITS.exportMonthRange) {
  const start = new Date(from);
  const limit = new Date(start);
  limit.setMonth(limit.getMonth() + months);
  return new Date(to).getTime() > limit.getTime();
}

/** A datetime-local input's value for an ISO time, in the browser's zone. */
export function toLocalInput(iso: string) {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
export const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : '');

// Group by day -------------------------------------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, '0');
/** A local day as YYYY-MM-DD: the form the server counts days in (in the browser's time zone). */
export const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** A day's heading: Today, Yesterday, or the weekday and date. */
export function dayLabel(iso: string, now = new Date()) {
  const date = new Date(iso);
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (dayKey(date) === dayKey(now)) return 'Today';
  if (dayKey(date) === dayKey(yesterday)) return 'Yesterday';
  return date.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'short', year: 'numeric' });
}

/**
 * Tickets of a page grouped by the day they were raised, in the order of the page. `count` is the day's number of
 * tickets in the whole filtered list when the server's day counts are known, else the rows of the page.
 */
export function groupByDay<T extends { createdAt: string }>(rows: T[], now = new Date(), dayCounts?: ReadonlyMap<string, number>) {
  const groups: { key: string; label: string; rows: T[]; count: number }[] = [];
  for (const row of rows) {
    const key = dayKey(new Date(row.createdAt));
    let group = groups.find((g) => g.key === key);
    if (!group) {
      group = { key, label: dayLabel(row.createdAt, now), rows: [], count: 0 };
      groups.push(group);
    }
    group.rows.push(row);
  }
  for (const g of groups) g.count = Math.max(dayCounts?.get(g.key) ?? 0, g.rows.length);
  return groups;
}

// Links --------------------------------------------------------------------------------------------------------

/** Where a ticket type's pages live (SPEC 2.2). */
export function basePath(type: ListType) {
  if (type === 'TICKET') return '/escalation-tickets';
  if (type === 'WORKORDERTICKET') return '/work-orders';
  return `/tickets/${type}`;
}
/** The view link of SPEC 2.2: {base}/view/?ticketId={id}[&historyId={id}]; work orders use /work-orders/{id}/view. */
export function viewPath(type: ListType, id: number, historyId?: number | null) {
  if (type === 'WORKORDERTICKET') return `/work-orders/${id}/view${historyId ? `?historyId=${historyId}` : ''}`;
  return `${basePath(type)}/view/?ticketId=${id}${historyId ? `&historyId=${historyId}` : ''}`;
}
export function createPath(type: ListType) {
  if (type === 'TICKET') return '/escalation-tickets/create';
  if (type === 'WORKORDERTICKET') return '/work-orders/create';
  return `/tickets/${type === 'all' ? 'TICKET' : type}/create`;
}
export function editPath(type: ListType, id: number) {
  if (type === 'TICKET') return `/escalation-tickets/${id}/edit`;
  return `${basePath(type)}/edit/?ticketId=${id}`;
}

/**
 * Where a ticket belongs when it was opened under another type's pages (a TICKET opened by a /work-orders/ link
 * must show the escalation tickets' breadcrumb): its own view or edit address, or null when it is already there.
 * The /tickets/all pages show every type and stay as they are.
 */
export function canonicalTicketPath(
  opened: ListType,
  ticket: { id: number; type: TicketType },
  options: { historyId?: number | null; edit?: boolean } = {},
): string | null {
  if (opened === 'all' || opened === ticket.type) return null;
  return options.edit ? editPath(ticket.type, ticket.id) : viewPath(ticket.type, ticket.id, options.historyId);
}

export const statusOrder = (s: string) => TICKET_STATUSES.indexOf(s as TicketStatus);
