import { z } from 'zod';
import { INT4_MAX, idCoerced, idSchema } from '../common.ts';
import { COMMON_MESSAGES } from '../messages.ts';
import { TICKET_TYPES, type TicketType } from '../ticket-types.ts';

/**
 * Helpdesk contracts: tickets of the four kinds, their statuses and transitions, history, comments and
 * attachments. Settings, issue types, escalation policies, reports and import live in admin.ts.
 */

export { TICKET_TYPE_LABELS, TICKET_TYPES, type TicketType } from '../ticket-types.ts';
export const ticketTypeSchema = z.enum(TICKET_TYPES);
/** Prefix of the human ticket number per type (TKT-1042). */
export const TICKET_NUMBER_PREFIX: Record<TicketType, string> = {
  TICKET: 'TKT',
  WORKORDERTICKET: 'WO',
  AIAlarmTicket: 'AI',
  AlarmTicket: 'ALM',
};

export const TICKET_STATUSES = [
  'OPEN',
  'INPROGRESS',
  'RESOLVED',
  'CLOSED',
  'ESCALATE',
  'RE-OPENED',
  'OVERDUE',
  'INREVIEW',
  'FLAGGED',
] as const;
export const ticketStatusSchema = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof ticketStatusSchema>;

/** Colours of every styled status: the four of SPEC 9, and the styled ones the spec names without colours. */
export const TICKET_STATUS_COLOURS: Record<TicketStatus, string> = {
  OPEN: '#ff8a00',
  INPROGRESS: '#00b7c2',
  RESOLVED: '#9a55f2',
  CLOSED: '#4bc177',
  ESCALATE: '#e53935',
  'RE-OPENED': '#f06292',
  OVERDUE: '#b71c1c',
  INREVIEW: '#3f51b5',
  FLAGGED: '#795548',
};
export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  OPEN: 'Open',
  INPROGRESS: 'In Progress',
  RESOLVED: 'Resolved',
  CLOSED: 'Closed',
  ESCALATE: 'Escalated',
  'RE-OPENED': 'Re-opened',
  OVERDUE: 'Overdue',
  INREVIEW: 'In Review',
  FLAGGED: 'Flagged',
};

/**
 * Allowed status changes (the spec leaves them open; docs/helpdesk.md explains them). OVERDUE and ESCALATE are
 * normally set by the SLA sweep and escalation timers, but a person may escalate by hand too.
 */
export const TICKET_TRANSITIONS: Record<TicketStatus, readonly TicketStatus[]> = {
  OPEN: ['INPROGRESS', 'INREVIEW', 'RESOLVED', 'CLOSED', 'ESCALATE', 'FLAGGED'],
  INPROGRESS: ['OPEN', 'INREVIEW', 'RESOLVED', 'ESCALATE', 'FLAGGED'],
  INREVIEW: ['INPROGRESS', 'RESOLVED', 'FLAGGED'],
  RESOLVED: ['CLOSED', 'RE-OPENED'],
  CLOSED: ['RE-OPENED'],
  'RE-OPENED': ['INPROGRESS', 'INREVIEW', 'RESOLVED', 'CLOSED', 'ESCALATE', 'FLAGGED'],
  ESCALATE: ['INPROGRESS', 'INREVIEW', 'RESOLVED', 'CLOSED', 'FLAGGED'],
  OVERDUE: ['INPROGRESS', 'INREVIEW', 'RESOLVED', 'CLOSED', 'ESCALATE', 'FLAGGED'],
  FLAGGED: ['OPEN', 'INPROGRESS', 'INREVIEW', 'RESOLVED', 'CLOSED'],
};
/** Statuses in which a ticket is finished: no SLA, no escalation. */
export const TERMINAL_STATUSES: readonly TicketStatus[] = ['RESOLVED', 'CLOSED'];
/** Statuses the owner of a ticket may set without the change_ticket permission. */
export const OWNER_STATUSES: readonly TicketStatus[] = ['CLOSED', 'RE-OPENED'];
export const canTransition = (from: TicketStatus, to: TicketStatus) => from === to || TICKET_TRANSITIONS[from].includes(to);
export const transitionRefusal = (from: TicketStatus, to: TicketStatus) =>
  `A ticket cannot move from ${from} to ${to}. From ${from} it can move to ${TICKET_TRANSITIONS[from].join(', ') || 'no other status'}.`;

export const DEFAULT_PRIORITIES = [
  { name: 'CRITICAL', color: '#d32f2f' },
  { name: 'MAJOR', color: '#f57c00' },
  { name: 'MINOR', color: '#fbc02d' },
  { name: 'LOW', color: '#43a047' },
] as const;

export const TICKET_LIMITS = {
  titleMax: 250,
  eventMax: 250,
  descriptionMax: 5000,
  commentMax: 2000,
  attachmentBytes: 1024 * 1024,
  attachmentsPerTicket: 20,
  checklistItems: 100,
  watchers: 50,
  ratingMax: 5,
  ratingThreshold: 3,
  exportPageSize: 100,
  exportPageDelayMs: 500,
  exportMaxRows: 10_000,
  exportMonthRange: 6,
  exportRetries: 3,
  exportRetryDelayMs: 2000,
  carouselPerSlide: 4,
  carouselMoreEvery: 3,
  listCountCap: 10_000,
} as const;

export const HELPDESK_MESSAGES = {
  ticketCreated: 'Ticket created successfully',
  ticketUpdated: 'Ticket updated successfully',
  ratingSaved: 'Your rating has been saved',
  costFailed: 'Failed To Update Cost Incurred',
  exportError: 'Error generating CSV, Please try agin later!',
  exportFetching: 'Fetching Data...',
  exportProcessing: 'Processing Data...',
  exportEmpty: 'Data Is Empty...',
  exportMaxLimit: (n: number) => `Max limit exceeded, Only ${n} ticket(s) will be downloaded!`,
  downloadCancelled: 'Download cancelled',
  alreadyInProgress: 'Already In Progress',
  attachmentTooLarge: COMMON_MESSAGES.attachmentTooLarge,
  attachmentUploadTooLarge: 'Attachments file size too large - Failed to upload',
  uploadFailed: 'Upload attachments - Fail',
  deleteFailed: 'Delete attachments - Fail',
  attachmentType: 'This file type is not allowed; attach an image, PDF, video or text file',
  staleVersion: 'This ticket was changed by someone else meanwhile. Reload it to see their change, then try again.',
  attachmentRequiredForReview: 'Add at least one attachment before sending the ticket for review',
  ratingNotAllowed: 'Only the owner of the ticket can rate it',
  ratingTooEarly: 'A ticket can be rated once it is resolved or closed',
  unknownAssignee: 'The assignee is not a user of this customer',
  unknownLocation: 'The location is not a site of this customer',
  unknownEntity: 'The device is not a device of this customer',
  entityNotAtLocation: 'The device is not at the selected location',
  /** A device of another site than the chosen location (both visible to the user): says which is where. */
  deviceAtOtherSite: (device: string, location: string) =>
    `${device} is not at the selected location ${location}. Choose a device of ${location}, or clear the location.`,
  unknownIssueType: 'Unknown issue type',
  unknownSubType: 'Unknown issue sub type for this issue type',
  unknownPriority: 'Unknown priority',
  maxCharacters: COMMON_MESSAGES.maxCharacters,
  noValidImportData: COMMON_MESSAGES.noValidImportData,
  invalidJson: COMMON_MESSAGES.invalidJson,
} as const;

const maxChars = (n: number) => z.string().trim().max(n, COMMON_MESSAGES.maxCharacters);
const isoDate = z.iso.datetime({ offset: true });

export const attachmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  src: z.string(),
  size: z.number().int(),
  type: z.string(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
  createdAt: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const userRefSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;

export const statusAgeingSchema = z.record(
  z.string(),
  z.object({
    /** Seconds spent in the status over every visit, up to the last exit (add now − enteredAt while current). */
    duration: z.number(),
    enteredAt: z.string(),
    exitedAt: z.string().nullable(),
    count: z.number().int(),
  }),
);
export type StatusAgeing = z.infer<typeof statusAgeingSchema>;

export const checklistItemSchema = z.object({
  id: z.string().min(1).max(40),
  text: maxChars(250).min(1, 'Checklist item text is required'),
  done: z.boolean().default(false),
  doneBy: z.number().int().nullable().default(null),
  doneAt: z.string().nullable().default(null),
});
export type ChecklistItem = z.infer<typeof checklistItemSchema>;

export const costIncurredSchema = z.object({
  amount: z.number().min(0).max(1e12),
  currency: z.string().trim().min(1).max(8).default('USD'),
  note: maxChars(250).default(''),
});
export type CostIncurred = z.infer<typeof costIncurredSchema>;

export const additionalInformationSchema = z
  .object({
    deviceLabel: z.string().nullable().optional(),
    assetLabel: z.string().nullable().optional(),
    parentLabel: z.string().nullable().optional(),
    formId: z.union([z.number(), z.string()]).nullable().optional(),
  })
  .catchall(z.unknown());

export const ticketSummarySchema = z.object({
  id: z.number().int(),
  ticketId: z.string(),
  type: ticketTypeSchema,
  status: ticketStatusSchema,
  priority: z.string(),
  event: z.string(),
  subEvent: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  assignedTo: z.number().int().nullable(),
  assignee: userRefSchema.nullable(),
  /** The vendor the ticket is assigned to. */
  vendorId: z.number().int().nullable(),
  vendor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  createdBy: userRefSchema.nullable(),
  onHold: z.boolean(),
  acknowledged: z.boolean(),
  locationId: z.number().int().nullable(),
  entityId: z.number().int().nullable(),
  entityProfileType: z.string().nullable(),
  eventDate: z.string(),
  dueDate: z.string().nullable(),
  resolvedDate: z.string().nullable(),
  assignedDate: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  city: z.string().nullable(),
  assetType: z.string().nullable(),
  deviceName: z.string().nullable(),
  additionalInformation: additionalInformationSchema,
  overdue: z.boolean(),
  /** Set while a maintenance window at the ticket's site holds its SLA clock. */
  slaPausedAt: z.string().nullable(),
  escalationLevel: z.number().int(),
  attachmentCount: z.number().int(),
  /** Download path of the first image attachment, for the thumbnail view. */
  thumbnail: z.string().nullable(),
  rating: z.number().int().nullable(),
  version: z.number().int(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

export const attendanceSchema = z.object({
  id: z.number().int(),
  user: userRefSchema.nullable(),
  note: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  createdAt: z.string(),
});

export const ticketLinkSchema = z.object({
  id: z.number().int(),
  ticketId: z.string(),
  type: ticketTypeSchema,
  status: ticketStatusSchema,
  title: z.string(),
});

export const ticketSchema = ticketSummarySchema.extend({
  attachments: z.array(attachmentSchema),
  metadata: z.record(z.string(), z.unknown()),
  statusAgeing: statusAgeingSchema,
  watchers: z.array(userRefSchema),
  ratingDetail: z
    .object({
      value: z.number().int(),
      comment: z.string(),
      ratedBy: userRefSchema.nullable(),
      ratedAt: z.string(),
      raisedTicketId: z.number().int().nullable(),
    })
    .nullable(),
  costIncurred: costIncurredSchema.nullable(),
  checklist: z.array(checklistItemSchema),
  parent: ticketLinkSchema.nullable(),
  workOrders: z.array(ticketLinkSchema),
  attendance: z.array(attendanceSchema),
  escalation: z
    .object({
      policyId: z.number().int(),
      policyName: z.string(),
      level: z.number().int(),
      levels: z.number().int(),
      nextAt: z.string().nullable(),
    })
    .nullable(),
  /** What the caller may do with this ticket, so screens offer only working actions. */
  can: z.object({
    edit: z.boolean(),
    assign: z.boolean(),
    statuses: z.array(ticketStatusSchema),
    rate: z.boolean(),
    comment: z.boolean(),
    attach: z.boolean(),
    watch: z.boolean(),
    manageWatchers: z.boolean(),
    workOrder: z.boolean(),
    attendance: z.boolean(),
  }),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketListSchema = z.object({
  contents: z.array(ticketSummarySchema),
  totalCount: z.number().int(),
  /** False when totalCount is a planner estimate (above TICKET_LIMITS.listCountCap matching rows). */
  totalExact: z.boolean(),
});
export type TicketList = z.infer<typeof ticketListSchema>;

const splitCsv = z.union([z.string(), z.array(z.string())]).transform((value) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((part) => part.split(','))
    .map((part) => part.trim())
    .filter(Boolean),
);
const statusList = splitCsv.pipe(z.array(ticketStatusSchema).max(TICKET_STATUSES.length));
const priorityList = splitCsv.pipe(z.array(z.string().min(1).max(40)).max(20));
const boolParam = z.enum(['true', 'false']).transform((v) => v === 'true');

export const TICKET_SORT_FIELDS = ['createdAt', 'updatedAt', 'dueDate', 'eventDate', 'priority', 'status', 'ticketId'] as const;
export const ticketOrderSchema = z
  .string()
  .regex(
    /^-?(createdAt|updatedAt|dueDate|eventDate|priority|status|ticketId)$/,
    `orderBy must be one of ${TICKET_SORT_FIELDS.join(', ')}, optionally prefixed by -`,
  );

/** Filters shared by the list, the status cards and the reports. Unknown keys are refused. */
export const ticketFilterShape = {
  type: z.union([ticketTypeSchema, z.literal('all')]).default('all'),
  status: statusList.optional(),
  priority: priorityList.optional(),
  event: z.string().trim().min(1).max(250).optional(),
  subEvent: z.string().trim().min(1).max(250).optional(),
  assignedTo: z.union([z.literal('me'), z.literal('none'), idCoerced]).optional(),
  createdBy: z.union([z.literal('me'), idCoerced]).optional(),
  /** Tickets assigned to this vendor. */
  vendor: idCoerced.optional(),
  /** Only my tickets: assigned to me, raised by me or watched by me. */
  mine: boolParam.optional(),
  locationId: idCoerced.optional(),
  entityId: idCoerced.optional(),
  onHold: boolParam.optional(),
  acknowledged: boolParam.optional(),
  overdue: boolParam.optional(),
  search: z.string().trim().min(1).max(100).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  dateField: z.enum(['createdAt', 'updatedAt']).default('createdAt'),
};
export const ticketFilterSchema = z.strictObject(ticketFilterShape);
export type TicketFilter = z.infer<typeof ticketFilterSchema>;

export const ticketListQuerySchema = z.strictObject({
  ...ticketFilterShape,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(20),
  orderBy: ticketOrderSchema.default('-createdAt'),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

export const ticketStatsSchema = z.object({
  contents: z.array(z.object({ status: ticketStatusSchema, count: z.number().int(), color: z.string() })),
  total: z.number().int(),
});
export type TicketStats = z.infer<typeof ticketStatsSchema>;

/** An IANA time zone name the runtime knows (the browser's), in which the days of "group by day" are counted. */
const timeZoneSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return /^[A-Za-z0-9_+\-/]+$/.test(zone);
    } catch {
      return false;
    }
  }, 'timeZone must be a known time zone name, e.g. Asia/Kolkata');

/** Group by day (SPEC 2.15): the filtered tickets counted per day they were raised, for the group headings. */
export const ticketDaysQuerySchema = z.strictObject({ ...ticketFilterShape, timeZone: timeZoneSchema.default('UTC') });
export type TicketDaysQuery = z.infer<typeof ticketDaysQuerySchema>;
export const ticketDaysSchema = z.object({
  /** Newest day first; `day` is YYYY-MM-DD in the asked time zone. */
  contents: z.array(z.object({ day: z.string(), count: z.number().int() })),
});
export type TicketDays = z.infer<typeof ticketDaysSchema>;

const ticketWritable = {
  event: maxChars(250).min(1, "Event name can't be empty"),
  subEvent: maxChars(250).nullable().optional(),
  title: maxChars(250).min(1, 'Summary is required'),
  description: z
    .string()
    .trim()
    .max(TICKET_LIMITS.descriptionMax, `Please use maximum ${TICKET_LIMITS.descriptionMax} characters`)
    .default(''),
  priority: z.string().trim().min(1).max(40).optional(),
  assignedTo: idSchema.nullable().optional(),
  vendorId: idSchema.nullable().optional(),
  onHold: z.boolean().optional(),
  acknowledged: z.boolean().optional(),
  locationId: idSchema.nullable().optional(),
  entityId: idSchema.nullable().optional(),
  entityProfileType: z.string().trim().max(40).nullable().optional(),
  eventDate: isoDate.optional(),
  dueDate: isoDate.nullable().optional(),
  city: maxChars(120).nullable().optional(),
  assetType: maxChars(120).nullable().optional(),
  deviceName: maxChars(250).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  additionalInformation: z
    .object({
      formId: z
        .union([z.number(), z.string().max(60)])
        .nullable()
        .optional(),
    })
    .optional(),
  watchers: z.array(idSchema).max(TICKET_LIMITS.watchers).optional(),
};

export const ticketCreateSchema = z.object({
  type: ticketTypeSchema.optional(),
  status: ticketStatusSchema.optional(),
  ...ticketWritable,
  checklist: z.array(checklistItemSchema).max(TICKET_LIMITS.checklistItems).optional(),
  parentId: idSchema.nullable().optional(),
});
export type TicketCreate = z.infer<typeof ticketCreateSchema>;

/** PUT: the full ticket or any part of it, always with the version it was read at. */
export const ticketUpdateSchema = z.object({
  version: z.number().int().min(1).max(INT4_MAX),
  status: ticketStatusSchema.optional(),
  /** A note that goes into the history entry of this change. */
  note: maxChars(250).optional(),
  ...ticketWritable,
  event: ticketWritable.event.optional(),
  title: ticketWritable.title.optional(),
  description: ticketWritable.description.unwrap().optional(),
  checklist: z.array(checklistItemSchema).max(TICKET_LIMITS.checklistItems).optional(),
  costIncurred: costIncurredSchema.nullable().optional(),
});
export type TicketUpdate = z.infer<typeof ticketUpdateSchema>;

export const historyChangeSchema = z.object({ field: z.string(), from: z.unknown(), to: z.unknown() });
export const historyEntrySchema = z.object({
  history_id: z.number().int(),
  ticket: z.number().int(),
  action: z.string(),
  changes: z.array(historyChangeSchema),
  note: z.string().nullable(),
  actor: userRefSchema.nullable(),
  updatedAt: z.string(),
  /** When it was done at the site, when it reached the server later (sent from the phone's outbox). */
  performedAt: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const commentSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  author: userRefSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When it was written at the site, when it reached the server later (sent from the phone's outbox). */
  performedAt: z.string().nullable(),
});
export type Comment = z.infer<typeof commentSchema>;

export const historyQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  orderBy: z.enum(['updatedAt', '-updatedAt']).default('-updatedAt'),
});
export const historyListSchema = z.object({ contents: z.array(historyEntrySchema), totalCount: z.number().int() });
export const commentListSchema = z.object({ contents: z.array(commentSchema), totalCount: z.number().int() });
export const commentCreateSchema = z.object({ text: maxChars(TICKET_LIMITS.commentMax).min(1, 'Comment is required') });

export const ticketIdParamSchema = z.object({ id: idCoerced });
export const attachmentParamSchema = z.object({ id: idCoerced, attachmentId: idCoerced });
export const watcherParamSchema = z.object({ id: idCoerced, userId: idCoerced });

export const watcherAddSchema = z.object({ userId: idSchema.optional() });
export const ratingSchema = z.object({
  rating: z.number().int().min(1).max(TICKET_LIMITS.ratingMax),
  comment: maxChars(250).default(''),
});
export const ratingResultSchema = z.object({ ticket: ticketSchema, raisedTicket: ticketLinkSchema.nullable(), message: z.string() });
export const workOrderCreateSchema = z.object({
  title: maxChars(250).min(1).optional(),
  description: z.string().trim().max(TICKET_LIMITS.descriptionMax).optional(),
  assignedTo: idSchema.nullable().optional(),
  dueDate: isoDate.nullable().optional(),
  priority: z.string().trim().min(1).max(40).optional(),
});

export const bulkAssignSchema = z.object({
  ticketIds: z.array(idSchema).min(1, 'Choose at least one ticket').max(500),
  assignedTo: idSchema.nullable(),
  note: maxChars(250).optional(),
});
export const bulkAssignResultSchema = z.object({
  updated: z.array(z.number().int()),
  failed: z.array(z.object({ id: z.number().int(), detail: z.string() })),
});

/** A link that opens a ticket, optionally at one history entry: {base}/view/?ticketId={id}[&historyId={id}]. */
export const ticketViewLink = (base: string, ticketId: number, historyId?: number | null) =>
  `${base.replace(/\/$/, '')}/view/?ticketId=${ticketId}${historyId ? `&historyId=${historyId}` : ''}`;

/** Base path of a ticket type's pages. */
export const ticketBasePath = (type: TicketType) =>
  type === 'TICKET' ? '/escalation-tickets' : type === 'WORKORDERTICKET' ? '/work-orders' : `/tickets/${type}`;
