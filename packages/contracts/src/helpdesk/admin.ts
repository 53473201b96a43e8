import { z } from 'zod';
import { INT4_MAX, idSchema } from '../common.ts';
import { TICKET_DEFAULTS } from '../constants.ts';
import { COMMON_MESSAGES } from '../messages.ts';
import { idList } from '../query.ts';
import { roleSchema } from '../role-schemas.ts';
import {
  DEFAULT_PRIORITIES,
  TICKET_LIMITS,
  TICKET_STATUSES,
  TICKET_TYPE_LABELS,
  TICKET_TYPES,
  type TicketType,
  ticketFilterShape,
  ticketStatusSchema,
  ticketTypeSchema,
} from './tickets.ts';

/** Helpdesk settings, per-user list preferences, issue types, escalation policies, reports and CSV import. */

const maxChars = (n: number) => z.string().trim().max(n, COMMON_MESSAGES.maxCharacters);

/** Columns of the ticket table (SPEC 9): key → header. */
export const TICKET_COLUMNS = {
  ticketId: 'Ticket ID',
  location: 'Location',
  title: 'Summary',
  event: 'Issue Type',
  subEvent: 'Issue Sub Type',
  dueDate: 'Due Date',
  createdAt: 'Created Date',
  priority: 'Priority',
  status: 'Status',
  city: 'City',
  assetType: 'Asset Type',
  entity: 'Entity',
  description: 'Description',
  resolvedDate: 'Resolved Date',
  assignedDate: 'Assigned Date',
  acknowledged: 'Acknowledge',
  assignee: 'Assigned To',
  updatedAt: 'Updated Date',
} as const;
export type TicketColumn = keyof typeof TICKET_COLUMNS;
export const TICKET_COLUMN_KEYS = Object.keys(TICKET_COLUMNS) as TicketColumn[];
export const DEFAULT_VISIBLE_COLUMNS: TicketColumn[] = [
  'ticketId',
  'location',
  'title',
  'event',
  'subEvent',
  'dueDate',
  'createdAt',
  'priority',
  'status',
];
export const DEFAULT_HIDDEN_COLUMNS: TicketColumn[] = [
  'city',
  'assetType',
  'entity',
  'description',
  'resolvedDate',
  'assignedDate',
  'acknowledged',
  'assignee',
  'updatedAt',
];
const columnSchema = z.enum(TICKET_COLUMN_KEYS as [TicketColumn, ...TicketColumn[]]);

export const ticketViewConfigsSchema = z.object({
  watchers: z.boolean().default(true),
  rating: z.boolean().default(true),
  /** Rating by the owner only (SPEC 2.15 default). */
  ratingOwnerOnly: z.boolean().default(true),
  history: z.boolean().default(true),
  checklists: z.boolean().default(true),
  costIncurred: z.boolean().default(true),
  workOrder: z.boolean().default(true),
  markAttendance: z.boolean().default(true),
});

/** Settings of one ticket type's pages (SPEC 3 "Ticket settings"). */
export const ticketTypeSettingsSchema = z.object({
  label: z.string().trim().min(1).max(60),
  type: ticketTypeSchema,
  statusCards: z.array(ticketStatusSchema).max(TICKET_STATUSES.length).default(['OPEN', 'INPROGRESS', 'RESOLVED', 'CLOSED']),
  refreshInterval: z.number().int().min(TICKET_DEFAULTS.minRefreshIntervalSec).max(3600).default(TICKET_DEFAULTS.refreshIntervalSec),
  /** Restricts the lists of non-admin users to tickets they raised (matched by e-mail). */
  createdBy: z.boolean().default(false),
  ticketViewConfigs: ticketViewConfigsSchema.default(ticketViewConfigsSchema.parse({})),
  tableView: z
    .object({
      columns: z.array(columnSchema).min(1).default(DEFAULT_VISIBLE_COLUMNS),
      hidden: z.array(columnSchema).default(DEFAULT_HIDDEN_COLUMNS),
    })
    .default({ columns: DEFAULT_VISIBLE_COLUMNS, hidden: DEFAULT_HIDDEN_COLUMNS }),
});
export type TicketTypeSettings = z.infer<typeof ticketTypeSettingsSchema>;

export const prioritySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9_ -]+$/, 'Use letters, digits, spaces, - and _'),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colour is #rrggbb'),
});

export const defaultTypeSettings = (type: TicketType): TicketTypeSettings =>
  ticketTypeSettingsSchema.parse({ label: TICKET_TYPE_LABELS[type], type });

/** Tenant-wide helpdesk configuration; stored values over these defaults. */
export const helpdeskConfigSchema = z.object({
  priorities: z
    .array(prioritySchema)
    .min(1)
    .max(20)
    .default(DEFAULT_PRIORITIES.map((p) => ({ ...p }))),
  ratingThreshold: z.number().int().min(1).max(TICKET_LIMITS.ratingMax).default(TICKET_LIMITS.ratingThreshold),
  /** A rating under the threshold raises a follow-up ticket. */
  raiseTicketOnLowRating: z.boolean().default(true),
  /** Hours from creation to the due date when a ticket is raised without one (0 = no default due date). */
  defaultDueHours: z
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .default(48),
  types: z
    .object({
      TICKET: ticketTypeSettingsSchema.default(defaultTypeSettings('TICKET')),
      WORKORDERTICKET: ticketTypeSettingsSchema.default(defaultTypeSettings('WORKORDERTICKET')),
      AIAlarmTicket: ticketTypeSettingsSchema.default(defaultTypeSettings('AIAlarmTicket')),
      AlarmTicket: ticketTypeSettingsSchema.default(defaultTypeSettings('AlarmTicket')),
    })
    .default({
      TICKET: defaultTypeSettings('TICKET'),
      WORKORDERTICKET: defaultTypeSettings('WORKORDERTICKET'),
      AIAlarmTicket: defaultTypeSettings('AIAlarmTicket'),
      AlarmTicket: defaultTypeSettings('AlarmTicket'),
    }),
});
export type HelpdeskConfig = z.infer<typeof helpdeskConfigSchema>;
export const helpdeskConfigUpdateSchema = z.object({
  priorities: helpdeskConfigSchema.shape.priorities.unwrap().optional(),
  ratingThreshold: z.number().int().min(1).max(TICKET_LIMITS.ratingMax).optional(),
  raiseTicketOnLowRating: z.boolean().optional(),
  defaultDueHours: z
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .optional(),
  /** One type's settings replaced whole. */
  typeSettings: ticketTypeSettingsSchema.optional(),
});

export const statusRecordSchema = z.object({
  name: ticketStatusSchema,
  color: z.string(),
  label: z.string(),
  transitions: z.array(ticketStatusSchema),
});
export const statusListSchema = z.object({ contents: z.array(statusRecordSchema), totalCount: z.number().int() });
export const statusQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const priorityListSchema = z.object({ contents: z.array(prioritySchema) });

/** Per-user preferences of a ticket list, remembered on the server. */
export const ticketListPrefsSchema = z.object({
  columns: z.array(columnSchema).min(1).optional(),
  view: z.enum(['table', 'thumbnail', 'compact']).default('table'),
  groupByDay: z.boolean().default(false),
  autoRefresh: z.boolean().default(true),
  refreshInterval: z.number().int().min(TICKET_DEFAULTS.minRefreshIntervalSec).max(3600).optional(),
  onlyMine: z.boolean().default(false),
});
export type TicketListPrefs = z.infer<typeof ticketListPrefsSchema>;

export const TICKET_NOTIFICATION_EVENTS = ['created', 'assigned', 'updated', 'escalated'] as const;
/** Which ticket events a user wants to hear about, and whether as live popups. */
export const ticketNotificationPrefsSchema = z.object({
  events: z
    .object({
      created: z.boolean().default(true),
      assigned: z.boolean().default(true),
      updated: z.boolean().default(true),
      escalated: z.boolean().default(true),
    })
    .default({ created: true, assigned: true, updated: true, escalated: true }),
  types: z.array(ticketTypeSchema).default([...TICKET_TYPES]),
  popup: z.boolean().default(true),
});
export type TicketNotificationPrefs = z.infer<typeof ticketNotificationPrefsSchema>;

export const prefsQuerySchema = z.strictObject({ type: z.union([ticketTypeSchema, z.literal('all')]).default('all') });
export const prefsResponseSchema = z.object({ list: ticketListPrefsSchema, notifications: ticketNotificationPrefsSchema });
export const prefsUpdateSchema = z.object({
  type: z.union([ticketTypeSchema, z.literal('all')]).default('all'),
  list: ticketListPrefsSchema.optional(),
  notifications: ticketNotificationPrefsSchema.optional(),
});

export const assigneeSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string(), roles: z.array(z.string()) });
export const assigneeListSchema = z.object({ contents: z.array(assigneeSchema), totalCount: z.number().int() });
export const assigneeQuerySchema = z.strictObject({
  search: z.string().trim().max(100).optional(),
  ids: idList.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

// Issue types ---------------------------------------------------------------------------------------------------

export const issueTypeInputSchema = z.object({
  name: maxChars(250).min(1, "Event name can't be empty"),
  subTypes: z.array(maxChars(250).min(1)).max(100).default([]),
  ticketTypes: z
    .array(ticketTypeSchema)
    .min(1, 'Choose at least one ticket type')
    .default([...TICKET_TYPES]),
  defaultPriority: z.string().trim().min(1).max(40).nullable().default(null),
  /** Hours to the due date of a ticket of this issue type; null uses the helpdesk default. */
  slaHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .nullable()
    .default(null),
  description: maxChars(250).default(''),
  active: z.boolean().default(true),
});
export const issueTypeSchema = issueTypeInputSchema.extend({ id: z.number().int(), createdAt: z.string(), updatedAt: z.string() });
export type IssueType = z.infer<typeof issueTypeSchema>;
export const issueTypeListSchema = z.object({ contents: z.array(issueTypeSchema), totalCount: z.number().int() });
export const issueTypeQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  search: z.string().trim().max(100).optional(),
  ticketType: ticketTypeSchema.optional(),
  active: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

// Escalation policies -------------------------------------------------------------------------------------------

export const escalationLevelSchema = z
  .object({
    /** Minutes after the ticket was raised (level 1) or after the previous level (later levels). */
    waitMinutes: z
      .number()
      .int()
      .min(1)
      .max(60 * 24 * 30),
    assigneeId: idSchema.nullable().default(null),
    /** Assign to the least-loaded active user of this role when no assignee is named. */
    role: roleSchema.nullable().default(null),
    notify: z
      .object({
        assignee: z.boolean().default(true),
        owner: z.boolean().default(false),
        watchers: z.boolean().default(false),
        userIds: z.array(idSchema).max(50).default([]),
      })
      .default({ assignee: true, owner: false, watchers: false, userIds: [] }),
    message: maxChars(250).default(''),
  })
  .refine((l) => l.assigneeId !== null || l.role !== null || l.notify.userIds.length > 0 || l.notify.owner || l.notify.watchers, {
    message: 'A level needs an assignee, a role or someone to notify',
  });
export type EscalationLevel = z.infer<typeof escalationLevelSchema>;

export const escalationPolicyInputSchema = z.object({
  name: maxChars(120).min(1, 'Name is required'),
  description: maxChars(250).default(''),
  /** Which tickets the policy governs; an empty list matches any. The most specific active policy wins. */
  ticketTypes: z.array(ticketTypeSchema).default([]),
  priorities: z.array(z.string().trim().min(1).max(40)).default([]),
  events: z.array(maxChars(250).min(1)).default([]),
  /** Escalation stops once the ticket reaches this status: INPROGRESS for a response SLA, RESOLVED for resolution. */
  stopAt: z.enum(['INPROGRESS', 'RESOLVED']).default('RESOLVED'),
  levels: z.array(escalationLevelSchema).min(1, 'Add at least one level').max(10),
  active: z.boolean().default(true),
});
export const escalationPolicySchema = escalationPolicyInputSchema.extend({
  id: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Tickets currently governed by the policy and not finished. */
  activeTickets: z.number().int(),
});
export type EscalationPolicy = z.infer<typeof escalationPolicySchema>;
export const escalationPolicyListSchema = z.object({ contents: z.array(escalationPolicySchema), totalCount: z.number().int() });
export const escalationPolicyQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  search: z.string().trim().max(100).optional(),
});

// Reports -------------------------------------------------------------------------------------------------------

export const TICKET_REPORTS = {
  status: 'Tickets by status',
  'issue-type': 'Tickets by issue type',
  assignee: 'Workload and resolution by assignee',
  location: 'Tickets by location',
  ageing: 'Open ticket ageing',
  resolution: 'Resolution time by priority',
} as const;
export type TicketReportKind = keyof typeof TICKET_REPORTS;
export const ticketReportKindSchema = z.enum(Object.keys(TICKET_REPORTS) as [TicketReportKind, ...TicketReportKind[]]);

const { search: _s, mine: _m, ...reportFilterShape } = ticketFilterShape;
export const reportQuerySchema = z.strictObject({ ...reportFilterShape, kind: ticketReportKindSchema });
export const reportSchema = z.object({
  kind: ticketReportKindSchema,
  title: z.string(),
  columns: z.array(z.object({ key: z.string(), label: z.string() })),
  rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
});
export type TicketReport = z.infer<typeof reportSchema>;

export const dashboardQuerySchema = z.strictObject({ ...reportFilterShape });
export const dashboardSchema = z.object({
  total: z.number().int(),
  open: z.number().int(),
  overdue: z.number().int(),
  escalated: z.number().int(),
  resolvedInRange: z.number().int(),
  avgResolutionHours: z.number().nullable(),
  avgRating: z.number().nullable(),
  byStatus: z.array(z.object({ key: z.string(), count: z.number().int(), color: z.string() })),
  byPriority: z.array(z.object({ key: z.string(), count: z.number().int(), color: z.string() })),
  byType: z.array(z.object({ key: z.string(), count: z.number().int() })),
  byEvent: z.array(z.object({ key: z.string(), count: z.number().int() })),
  perDay: z.array(z.object({ day: z.string(), created: z.number().int(), resolved: z.number().int() })),
});

// Import --------------------------------------------------------------------------------------------------------

/** Columns a ticket CSV may carry and how each value is coerced (SPEC 5: number, text, json). */
export const TICKET_IMPORT_COLUMNS = {
  type: 'text',
  title: 'text',
  description: 'text',
  event: 'text',
  subEvent: 'text',
  priority: 'text',
  status: 'text',
  assignedTo: 'number',
  locationId: 'number',
  entityId: 'number',
  entityProfileType: 'text',
  eventDate: 'text',
  dueDate: 'text',
  city: 'text',
  assetType: 'text',
  deviceName: 'text',
  metadata: 'json',
} as const;
export type ImportColumnType = 'number' | 'text' | 'json';

export const importRowErrorSchema = z.object({ row: z.number().int(), field: z.string().nullable(), message: z.string() });
export const importResultSchema = z.object({
  dryRun: z.boolean(),
  totalRows: z.number().int(),
  validRows: z.number().int(),
  created: z.array(z.object({ id: z.number().int(), ticketId: z.string() })),
  errors: z.array(importRowErrorSchema),
  /** The first rows as they would be created, for the preview. */
  preview: z.array(z.record(z.string(), z.unknown())),
  columns: z.array(z.string()),
  ignoredColumns: z.array(z.string()),
});
export type ImportResult = z.infer<typeof importResultSchema>;
export const importQuerySchema = z.strictObject({
  dryRun: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(false),
});

export const IMPORT_LIMITS = { interactiveRows: 1000, bulkRows: 50_000, fileBytes: 10 * 1024 * 1024 } as const;

export const bulkImportSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  totalRows: z.number().int(),
  processedRows: z.number().int(),
  createdCount: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(importRowErrorSchema),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BulkImport = z.infer<typeof bulkImportSchema>;
export const bulkImportListSchema = z.object({ contents: z.array(bulkImportSchema), totalCount: z.number().int() });
