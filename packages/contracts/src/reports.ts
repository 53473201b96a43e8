import { z } from 'zod';
import { INT4_MAX, idCoerced } from './common.ts';
import { EXPORT_FORMATS } from './downloads.ts';
import { MOVEMENT_KINDS } from './inventory.ts';
import { PR_SOURCES, PR_STATES } from './purchase-requests.ts';

/** /inventory-report and /pr-report: tables with filters, exports as CSV, XLSX or PDF, and report schedules (issue 18). */

export const REPORT_FORMATS = EXPORT_FORMATS;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_FORMAT_LABELS: Record<ReportFormat, string> = { csv: 'CSV', xlsx: 'Excel (XLSX)', pdf: 'PDF' };

/** The reports that can be exported and scheduled; each is an export source of the same kind. */
export const REPORT_KINDS = ['inventory-stock', 'inventory-movements', 'inventory-consumption', 'purchase-requests'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  'inventory-stock': 'Stock on hand',
  'inventory-movements': 'Stock movements',
  'inventory-consumption': 'Consumption per site',
  'purchase-requests': 'Purchase requests',
};

/** A PDF holds at most this many rows (the rest is in the CSV or XLSX of the same report). */
export const REPORT_PDF_MAX_ROWS = 10_000;

const text = (max: number) => z.string().trim().max(max, `Please use maximum ${max} characters`);
const isoDate = z.iso
  .date('Enter a date as YYYY-MM-DD')
  .refine((d) => d >= '1970-01-01' && d <= '2999-12-31', 'Enter a date between 1970 and 2999');
const page = {
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
};
const fromBeforeTo = (v: { from?: string; to?: string }) => !v.from || !v.to || v.from <= v.to;
const FROM_AFTER_TO = { message: 'The start date must be before the end date', path: ['to'] };

// ---- filters (the same for the screen, the export and a schedule) -------------------------------------------

export const stockReportFilterSchema = z.object({
  storeId: idCoerced.optional(),
  assetId: idCoerced.optional(),
  category: text(80).optional(),
  search: text(100).optional(),
  low: z.enum(['true', 'false']).optional(),
});
export type StockReportFilter = z.infer<typeof stockReportFilterSchema>;

const movementFields = {
  from: isoDate.optional(),
  to: isoDate.optional(),
  kind: z.enum(MOVEMENT_KINDS).optional(),
  storeId: idCoerced.optional(),
  itemId: idCoerced.optional(),
  ticketId: idCoerced.optional(),
};
export const movementReportFilterSchema = z.object(movementFields).refine(fromBeforeTo, FROM_AFTER_TO);
export type MovementReportFilter = z.infer<typeof movementReportFilterSchema>;

export const CONSUMPTION_PERIODS = ['day', 'week', 'month'] as const;
const consumptionFields = {
  from: isoDate.optional(),
  to: isoDate.optional(),
  assetId: idCoerced.optional(),
  itemId: idCoerced.optional(),
  period: z.enum(CONSUMPTION_PERIODS).default('month'),
};
export const consumptionReportFilterSchema = z.object(consumptionFields).refine(fromBeforeTo, FROM_AFTER_TO);
export type ConsumptionReportFilter = z.infer<typeof consumptionReportFilterSchema>;

const prFields = {
  state: z.enum(PR_STATES).optional(),
  source: z.enum(PR_SOURCES).optional(),
  storeId: idCoerced.optional(),
  assetId: idCoerced.optional(),
  ticketId: idCoerced.optional(),
  requesterId: idCoerced.optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  search: text(100).optional(),
};
export const prReportFilterSchema = z.object(prFields).refine(fromBeforeTo, FROM_AFTER_TO);
export type PrReportFilter = z.infer<typeof prReportFilterSchema>;

export const stockReportQuerySchema = stockReportFilterSchema.extend(page);
export const movementReportQuerySchema = z.object({ ...movementFields, ...page }).refine(fromBeforeTo, FROM_AFTER_TO);
export const consumptionReportQuerySchema = z.object({ ...consumptionFields, ...page }).refine(fromBeforeTo, FROM_AFTER_TO);
export const prReportQuerySchema = z
  .object({ ...prFields, ...page, groupBy: z.enum(['state', 'month']).default('state') })
  .refine(fromBeforeTo, FROM_AFTER_TO);

// ---- rows --------------------------------------------------------------------------------------------------

export const stockReportRowSchema = z.object({
  itemId: z.number().int(),
  code: z.string(),
  name: z.string(),
  category: z.string(),
  unit: z.string(),
  storeId: z.number().int(),
  storeName: z.string(),
  siteName: z.string().nullable(),
  onHand: z.number().int(),
  threshold: z.number().int(),
  low: z.boolean(),
  unitCost: z.number(),
  value: z.number(),
});
export type StockReportRow = z.infer<typeof stockReportRowSchema>;
export const stockReportSchema = z.object({
  contents: z.array(stockReportRowSchema),
  totalCount: z.number().int(),
  totals: z.object({ onHand: z.number(), value: z.number(), low: z.number().int() }),
});

export const movementReportRowSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  kind: z.enum(MOVEMENT_KINDS),
  itemCode: z.string(),
  itemName: z.string(),
  quantity: z.number().int(),
  fromStore: z.string().nullable(),
  toStore: z.string().nullable(),
  ticketId: z.number().int().nullable(),
  note: z.string(),
});
export type MovementReportRow = z.infer<typeof movementReportRowSchema>;
export const movementReportSchema = z.object({
  contents: z.array(movementReportRowSchema),
  totalCount: z.number().int(),
  totals: z.array(z.object({ kind: z.enum(MOVEMENT_KINDS), count: z.number().int(), quantity: z.number() })),
});

export const consumptionReportRowSchema = z.object({
  period: z.string(),
  assetId: z.number().int().nullable(),
  siteName: z.string(),
  itemCode: z.string(),
  itemName: z.string(),
  unit: z.string(),
  issued: z.number(),
  returned: z.number(),
  consumed: z.number(),
  value: z.number(),
});
export type ConsumptionReportRow = z.infer<typeof consumptionReportRowSchema>;
export const consumptionReportSchema = z.object({
  contents: z.array(consumptionReportRowSchema),
  totalCount: z.number().int(),
  totals: z.object({ issued: z.number(), returned: z.number(), consumed: z.number(), value: z.number() }),
});

export const prReportSchema = z.object({
  contents: z.array(
    z.object({
      id: z.number().int(),
      number: z.string(),
      title: z.string(),
      state: z.enum(PR_STATES),
      source: z.enum(PR_SOURCES),
      storeName: z.string(),
      siteName: z.string().nullable(),
      ticketId: z.string().nullable(),
      requester: z.string(),
      createdAt: z.string(),
      total: z.number(),
    }),
  ),
  totalCount: z.number().int(),
  groups: z.array(z.object({ key: z.string(), count: z.number().int(), total: z.number() })),
  grandTotal: z.number(),
});

// ---- exports and schedules ----------------------------------------------------------------------------------

export const SCHEDULE_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
export const SCHEDULE_FREQUENCY_LABELS: Record<ScheduleFrequency, string> = { DAILY: 'Daily', WEEKLY: 'Weekly', MONTHLY: 'Monthly' };
export const REPORT_WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** A user keeps at most this many schedules. */
export const MAX_REPORT_SCHEDULES = 50;

export const reportScheduleInputSchema = z
  .strictObject({
    kind: z.enum(REPORT_KINDS),
    name: text(120).min(1, 'Name is required'),
    frequency: z.enum(SCHEDULE_FREQUENCIES),
    /** Time of day, UTC, HH:MM. */
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM'),
    /** 0 Sunday … 6 Saturday, for weekly schedules. */
    dayOfWeek: z.number().int().min(0).max(6).nullable().default(null),
    /** 1 … 28, for monthly schedules (every month has it). */
    dayOfMonth: z.number().int().min(1, 'Choose a day from 1 to 28').max(28, 'Choose a day from 1 to 28').nullable().default(null),
    format: z.enum(REPORT_FORMATS),
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .refine((v) => v.frequency !== 'WEEKLY' || v.dayOfWeek !== null, { message: 'Choose the day of the week', path: ['dayOfWeek'] })
  .refine((v) => v.frequency !== 'MONTHLY' || v.dayOfMonth !== null, { message: 'Choose the day of the month', path: ['dayOfMonth'] });
export type ReportScheduleInput = z.infer<typeof reportScheduleInputSchema>;

export const reportScheduleSchema = z.object({
  id: z.number().int(),
  kind: z.enum(REPORT_KINDS),
  name: z.string(),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  time: z.string(),
  dayOfWeek: z.number().int().nullable(),
  dayOfMonth: z.number().int().nullable(),
  format: z.enum(REPORT_FORMATS),
  params: z.record(z.string(), z.unknown()),
  nextRunAt: z.string(),
  lastRunAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;
export const reportScheduleListSchema = z.object({ contents: z.array(reportScheduleSchema), totalCount: z.number().int() });
export const reportScheduleQuerySchema = z.object({ kind: z.enum(REPORT_KINDS).optional() });

export const reportScheduleIdSchema = z.object({ id: idCoerced });
