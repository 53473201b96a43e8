import { z } from 'zod';
import { idCoerced, idSchema } from './common.ts';
import type { PermissionCodename } from './permissions.ts';

/** What an event is: shifts and visits of field staff, planned maintenance, and maintenance windows on devices. */
export const CALENDAR_KINDS = ['shift', 'site_visit', 'preventive_maintenance', 'maintenance_window', 'other'] as const;
export type CalendarKind = (typeof CALENDAR_KINDS)[number];
export const CALENDAR_KIND_LABELS: Record<CalendarKind, string> = {
  shift: 'Shift',
  site_visit: 'Site visit',
  preventive_maintenance: 'Preventive maintenance',
  maintenance_window: 'Maintenance window',
  other: 'Other',
};
/** Kinds someone holding add_event without change_event may create for themselves. */
export const OWN_EVENT_KINDS: readonly CalendarKind[] = ['shift', 'site_visit', 'other'];

export const CALENDAR_PERMISSIONS = {
  view: 'view_event',
  add: 'add_event',
  change: 'change_event',
  delete: 'delete_event',
} as const satisfies Record<string, PermissionCodename>;

export const CALENDAR_LIMITS = {
  title: 200,
  notes: 2000,
  assignees: 50,
  exceptions: 500,
  interval: 99,
  count: 1000,
  /** The widest range one list request may expand. */
  rangeDays: 62,
  /** Occurrences one list answer carries at most. */
  items: 5000,
  /** Longest event. */
  durationDays: 31,
} as const;

export const CALENDAR_MESSAGES = {
  created: 'Event created',
  updated: 'Event updated',
  deleted: 'Event deleted',
  endBeforeStart: 'The end must be after the start',
  tooLong: `An event may last at most ${CALENDAR_LIMITS.durationDays} days`,
  badZone: 'Choose a valid time zone',
  badRange: `Choose a range of at most ${CALENDAR_LIMITS.rangeDays} days, ending after it starts`,
  windowTarget: 'A maintenance window needs a site or a device',
  untilAndCount: 'Choose an end date or a number of occurrences, not both',
  notAnOccurrence: 'This occurrence is not part of the series',
  ownOnly: 'You may only add your own shifts, visits and other events',
  noSeries: 'This event does not repeat',
  deviceSite: 'The device is not on the chosen site',
} as const;

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A wall-clock time in the event's zone, to the minute: 2026-03-08T09:00. */
const LOCAL_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/;
export const localDateTimeSchema = z
  .string({ message: 'Choose a date and time' })
  .regex(LOCAL_RE, 'Use a date and time like 2026-03-08T09:00');
const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const localDateSchema = z.string().regex(DATE_RE, 'Use a date like 2026-03-08');

/** Whether the runtime knows the IANA zone. */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
export const timeZoneSchema = z
  .string({ message: CALENDAR_MESSAGES.badZone })
  .max(64, CALENDAR_MESSAGES.badZone)
  .refine(isTimeZone, CALENDAR_MESSAGES.badZone);

export const recurrenceSchema = z
  .object({
    freq: z.enum(['DAILY', 'WEEKLY', 'MONTHLY'], { message: 'Choose daily, weekly or monthly' }),
    interval: z
      .number()
      .int()
      .min(1, 'Repeat at least every 1')
      .max(CALENDAR_LIMITS.interval, `Repeat at most every ${CALENDAR_LIMITS.interval}`),
    byWeekday: z
      .array(z.enum(WEEKDAYS, { message: 'Unknown weekday' }))
      .max(7)
      .default([]),
    /** Last day an occurrence may start on (in the event's zone), inclusive. */
    until: localDateSchema.nullable().default(null),
    count: z.number().int().min(1).max(CALENDAR_LIMITS.count, `At most ${CALENDAR_LIMITS.count} occurrences`).nullable().default(null),
  })
  .refine((r) => !(r.until && r.count), { message: CALENDAR_MESSAGES.untilAndCount, path: ['count'] });
export type Recurrence = z.infer<typeof recurrenceSchema>;

const colorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #1976d2');

export const calendarEventInputSchema = z
  .object({
    title: z
      .string({ message: 'Title is required' })
      .trim()
      .min(1, 'Title is required')
      .max(CALENDAR_LIMITS.title, `Please use maximum ${CALENDAR_LIMITS.title} characters`),
    kind: z.enum(CALENDAR_KINDS, { message: 'Choose a kind' }),
    allDay: z.boolean().default(false),
    start: localDateTimeSchema,
    end: localDateTimeSchema,
    timeZone: timeZoneSchema,
    recurrence: recurrenceSchema.nullable().default(null),
    assigneeIds: z.array(idSchema).max(CALENDAR_LIMITS.assignees, `At most ${CALENDAR_LIMITS.assignees} assignees`).default([]),
    siteId: idSchema.nullable().default(null),
    deviceId: idSchema.nullable().default(null),
    clusterId: idSchema.nullable().default(null),
    notes: z.string().max(CALENDAR_LIMITS.notes, `Please use maximum ${CALENDAR_LIMITS.notes} characters`).default(''),
    color: colorSchema.nullable().default(null),
  })
  .refine((e) => e.end > e.start, { message: CALENDAR_MESSAGES.endBeforeStart, path: ['end'] })
  .refine((e) => e.kind !== 'maintenance_window' || e.siteId !== null || e.deviceId !== null, {
    message: CALENDAR_MESSAGES.windowTarget,
    path: ['siteId'],
  });
export type CalendarEventInput = z.input<typeof calendarEventInputSchema>;

export const calendarEventSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  kind: z.enum(CALENDAR_KINDS),
  allDay: z.boolean(),
  start: z.string(),
  end: z.string(),
  timeZone: z.string(),
  recurrence: recurrenceSchema.nullable(),
  /** The RRULE the recurrence stands for (RFC 5545), for display. */
  rrule: z.string().nullable(),
  exceptions: z.array(z.string()),
  /** For an occurrence moved out of a series: the series and the occurrence's original start. */
  seriesId: z.number().int().nullable(),
  originalStart: z.string().nullable(),
  assignees: z.array(z.object({ id: z.number().int(), name: z.string() })),
  site: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  device: z.object({ id: z.number().int(), label: z.string() }).nullable(),
  clusterId: z.number().int().nullable(),
  notes: z.string(),
  color: z.string().nullable(),
  createdBy: z.number().int().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  can: z.object({ change: z.boolean(), delete: z.boolean() }),
});
export type CalendarEvent = z.infer<typeof calendarEventSchema>;

export const calendarRangeQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true, message: 'Choose a start' }),
    to: z.iso.datetime({ offset: true, message: 'Choose an end' }),
    userId: idCoerced.optional(),
    siteId: idCoerced.optional(),
    clusterId: idCoerced.optional(),
    kind: z.enum(CALENDAR_KINDS).optional(),
    /** Include work-order due dates and escalation due times from the helpdesk (default yes). */
    tickets: z.enum(['true', 'false']).default('true'),
  })
  .refine(
    (q) => {
      const from = Date.parse(q.from);
      const to = Date.parse(q.to);
      return to > from && to - from <= CALENDAR_LIMITS.rangeDays * 86_400_000;
    },
    { message: CALENDAR_MESSAGES.badRange, path: ['to'] },
  );
export type CalendarRangeQuery = z.infer<typeof calendarRangeQuerySchema>;

export const CALENDAR_ITEM_SOURCES = ['event', 'workorder', 'escalation'] as const;
export const calendarItemSchema = z.object({
  /** `{eventId}:{local start}` for occurrences, `wo:{ticketId}` / `esc:{ticketId}` for helpdesk items. */
  id: z.string(),
  source: z.enum(CALENDAR_ITEM_SOURCES),
  eventId: z.number().int().nullable(),
  ticketId: z.number().int().nullable(),
  title: z.string(),
  kind: z.enum(CALENDAR_KINDS).nullable(),
  /** UTC instants (ISO); for all-day items the dates (end exclusive). */
  start: z.string(),
  end: z.string(),
  allDay: z.boolean(),
  timeZone: z.string().nullable(),
  /** The occurrence's wall-clock start in its zone (the key of an exception). */
  occurrence: z.string().nullable(),
  recurring: z.boolean(),
  siteId: z.number().int().nullable(),
  siteName: z.string().nullable(),
  deviceId: z.number().int().nullable(),
  assigneeIds: z.array(z.number().int()),
  color: z.string().nullable(),
  editable: z.boolean(),
});
export type CalendarItem = z.infer<typeof calendarItemSchema>;
export const calendarItemListSchema = z.object({ contents: z.array(calendarItemSchema), truncated: z.boolean() });

export const calendarEventListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().max(100).optional(),
  kind: z.enum(CALENDAR_KINDS).optional(),
});
export const calendarEventListSchema = z.object({ contents: z.array(calendarEventSchema), totalCount: z.number().int() });

/** Moving one occurrence, or the whole series, to new wall-clock times. */
export const calendarRescheduleSchema = z
  .object({
    scope: z.enum(['occurrence', 'series'], { message: 'Choose this occurrence or the whole series' }),
    /** The occurrence's original wall-clock start (its `occurrence`). */
    occurrence: localDateTimeSchema,
    start: localDateTimeSchema,
    end: localDateTimeSchema,
    allDay: z.boolean().optional(),
    version: z.number().int().min(1).max(2147483647).optional(),
  })
  .refine((e) => e.end > e.start, { message: CALENDAR_MESSAGES.endBeforeStart, path: ['end'] });
export type CalendarReschedule = z.infer<typeof calendarRescheduleSchema>;
export const calendarRescheduleResultSchema = z.object({ event: calendarEventSchema });

export const calendarUpdateSchema = calendarEventInputSchema.and(z.object({ version: z.number().int().min(1).max(2147483647).optional() }));

export const calendarDeleteQuerySchema = z.object({
  /** Delete only this occurrence (local wall-clock start) of a series. */
  occurrence: localDateTimeSchema.optional(),
});

export const calendarOptionsSchema = z.object({
  clusters: z.array(z.object({ id: z.number().int(), name: z.string() })),
  can: z.object({ add: z.boolean(), change: z.boolean(), delete: z.boolean(), addOwnOnly: z.boolean(), maintenance: z.boolean() }),
});

/** A device's maintenance that a window switched on, shown on the device page. */
export const activeWindowSchema = z.object({
  window: z
    .object({
      eventId: z.number().int(),
      title: z.string(),
      startedAt: z.string(),
      until: z.string(),
    })
    .nullable(),
});
export type ActiveWindow = z.infer<typeof activeWindowSchema>;

export const CALENDAR_EVENT_TYPES = { changed: 'calendar.changed', window: 'calendar.window' } as const;
export interface CalendarChangedPayload {
  eventId: number;
  assetId: number | null;
  action: 'created' | 'updated' | 'deleted';
}
export interface CalendarWindowPayload {
  eventId: number;
  assetId: number | null;
  deviceIds: number[];
  active: boolean;
}
