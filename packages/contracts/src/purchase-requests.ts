import { z } from 'zod';
import { INT4_MAX, idCoerced, idSchema } from './common.ts';
import type { PermissionCodename } from './permissions.ts';

/** Purchase requests for spare parts, raised from tickets and from low stock, received into a store (issue 18). */

export const PURCHASE_REQUEST_PERMISSIONS = {
  view: 'view_purchaserequest',
  add: 'add_purchaserequest',
  change: 'change_purchaserequest',
  approve: 'approve_purchaserequest',
} as const satisfies Record<string, PermissionCodename>;

export const PR_STATES = ['DRAFT', 'SUBMITTED', 'APPROVED', 'REJECTED', 'ORDERED', 'RECEIVED', 'CANCELLED'] as const;
export type PrState = (typeof PR_STATES)[number];
export const PR_STATE_LABELS: Record<PrState, string> = {
  DRAFT: 'Draft',
  SUBMITTED: 'Submitted',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  ORDERED: 'Ordered',
  RECEIVED: 'Received',
  CANCELLED: 'Cancelled',
};
export const PR_SOURCES = ['MANUAL', 'TICKET', 'LOW_STOCK'] as const;
export type PrSource = (typeof PR_SOURCES)[number];

export const PR_ACTIONS = ['submit', 'approve', 'reject', 'order', 'receive', 'cancel'] as const;
export type PrAction = (typeof PR_ACTIONS)[number];
export const PR_ACTION_LABELS: Record<PrAction, string> = {
  submit: 'Submit',
  approve: 'Approve',
  reject: 'Reject',
  order: 'Mark ordered',
  receive: 'Receive',
  cancel: 'Cancel',
};

/** Which state each action leads from and to; anything else is refused. */
export const PR_TRANSITIONS: Record<PrAction, { from: readonly PrState[]; to: PrState }> = {
  submit: { from: ['DRAFT'], to: 'SUBMITTED' },
  approve: { from: ['SUBMITTED'], to: 'APPROVED' },
  reject: { from: ['SUBMITTED'], to: 'REJECTED' },
  order: { from: ['APPROVED'], to: 'ORDERED' },
  receive: { from: ['APPROVED', 'ORDERED'], to: 'RECEIVED' },
  cancel: { from: ['DRAFT', 'SUBMITTED', 'APPROVED', 'ORDERED'], to: 'CANCELLED' },
};

/** The permission each action needs (beyond seeing the request). */
export const PR_ACTION_PERMISSION: Record<PrAction, keyof typeof PURCHASE_REQUEST_PERMISSIONS> = {
  submit: 'change',
  approve: 'approve',
  reject: 'approve',
  order: 'approve',
  receive: 'change',
  cancel: 'change',
};

export const PR_LIMITS = { title: 200, note: 500, lines: 100, quantity: 1_000_000, unitCost: 999_999 } as const;

export const PR_MESSAGES = {
  created: 'Successfully Created',
  updated: 'Successfully Updated',
  titleRequired: 'Title is required',
  linesRequired: 'Add at least one item',
  quantityMin: 'Quantity must be at least 1',
  costMin: 'Unit cost cannot be negative',
  reasonRequired: 'Please give a reason',
  onlyDraftEditable: 'Only a draft can be edited',
  notAllowed: (action: string, state: string) => `A ${state.toLowerCase()} request cannot be ${action}`,
  itemTwice: 'Name each item once',
  nothingLow: 'No item is below its low-stock threshold in this store',
  serialsNeeded: (code: string, n: number) => `Enter ${n} serial number${n === 1 ? '' : 's'} for ${code}`,
  notFound: 'Purchase request not found.',
  moved: (action: string) => `Purchase request ${action}`,
} as const;

const text = (max: number) => z.string().trim().max(max, `Please use maximum ${max} characters`);
const money = z.number().min(0, PR_MESSAGES.costMin).max(PR_LIMITS.unitCost).multipleOf(0.01);

export const prLineInputSchema = z.object({
  itemId: idSchema,
  quantity: z.number().int().min(1, PR_MESSAGES.quantityMin).max(PR_LIMITS.quantity),
  unitCost: money,
});
export type PrLineInput = z.infer<typeof prLineInputSchema>;

export const prInputSchema = z.object({
  title: text(PR_LIMITS.title).min(1, PR_MESSAGES.titleRequired),
  storeId: idSchema,
  ticketId: idSchema.nullable().default(null),
  note: text(PR_LIMITS.note).default(''),
  lines: z.array(prLineInputSchema).min(1, PR_MESSAGES.linesRequired).max(PR_LIMITS.lines),
  /** Submit at once instead of keeping a draft. */
  submit: z.boolean().default(false),
});
export type PrInput = z.infer<typeof prInputSchema>;

export const prFromLowStockSchema = z.object({ storeId: idSchema, submit: z.boolean().default(false) });
export type PrFromLowStock = z.infer<typeof prFromLowStockSchema>;

export const prActionSchema = z.object({
  action: z.enum(PR_ACTIONS),
  /** Needed to reject or cancel. */
  reason: text(PR_LIMITS.note).default(''),
  /** Receiving serial-tracked items: the serial numbers per item id, one per unit. */
  serials: z
    .record(
      z.string().regex(/^\d{1,10}$/, 'Unknown item'),
      z.array(z.string().trim().min(1).max(80, 'Please use maximum 80 characters')).max(200),
    )
    .default({}),
});
export type PrActionInput = z.infer<typeof prActionSchema>;

const ref = z.object({ id: z.number().int(), name: z.string() });
export const prLineSchema = z.object({
  id: z.number().int(),
  itemId: z.number().int(),
  itemCode: z.string(),
  itemName: z.string(),
  unit: z.string(),
  quantity: z.number().int(),
  unitCost: z.number(),
  total: z.number(),
});
export const purchaseRequestSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  title: z.string(),
  state: z.enum(PR_STATES),
  source: z.enum(PR_SOURCES),
  store: ref,
  site: ref.nullable(),
  ticket: z.object({ id: z.number().int(), ticketId: z.string() }).nullable(),
  requester: ref.nullable(),
  decidedBy: ref.nullable(),
  note: z.string(),
  reason: z.string(),
  total: z.number(),
  lineCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
});
export type PurchaseRequest = z.infer<typeof purchaseRequestSchema>;
export const purchaseRequestDetailSchema = purchaseRequestSchema.extend({
  lines: z.array(prLineSchema),
  /** The actions this caller may take now. */
  actions: z.array(z.enum(PR_ACTIONS)),
});
export type PurchaseRequestDetail = z.infer<typeof purchaseRequestDetailSchema>;
export const prActionResultSchema = purchaseRequestDetailSchema.extend({ message: z.string() });

const isoDate = z.iso
  .date('Enter a date as YYYY-MM-DD')
  .refine((d) => d >= '1970-01-01' && d <= '2999-12-31', 'Enter a date between 1970 and 2999');
export const prQuerySchema = z.object({
  state: z.enum(PR_STATES).optional(),
  source: z.enum(PR_SOURCES).optional(),
  storeId: idCoerced.optional(),
  assetId: idCoerced.optional(),
  ticketId: idCoerced.optional(),
  requesterId: idCoerced.optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  search: text(100).optional(),
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type PrQuery = z.infer<typeof prQuerySchema>;
export const prListSchema = z.object({
  contents: z.array(purchaseRequestSchema),
  totalCount: z.number().int(),
  /** Count and value per state of everything the filters match (all pages). */
  totals: z.array(z.object({ state: z.enum(PR_STATES), count: z.number().int(), total: z.number() })),
  grandTotal: z.number(),
});
export type PrList = z.infer<typeof prListSchema>;
