import { z } from 'zod';
import { INT4_MAX, idCoerced, idSchema } from './common.ts';
import type { PermissionCodename } from './permissions.ts';

/** Inventory of spares and equipment: stores, items, serial units and the stock ledger (issue 16). */

export const INVENTORY_PERMISSIONS = {
  view: 'view_inventory',
  add: 'add_inventory',
  change: 'change_inventory',
  delete: 'delete_inventory',
} as const satisfies Record<string, PermissionCodename>;

export const INVENTORY_LIMITS = {
  name: 120,
  code: 40,
  text: 80,
  unit: 20,
  serial: 80,
  note: 500,
  /** Serials named in one movement. */
  serialsPerMove: 200,
  /** Units moved at once (and a threshold's maximum). */
  quantity: 1_000_000,
  managers: 20,
} as const;

export const INVENTORY_MESSAGES = {
  created: 'Successfully Created',
  updated: 'Successfully Updated',
  deleted: 'Successfully Deleted',
  moved: 'Stock updated',
  storeExists: 'A store with this name already exists',
  codeExists: 'An item with this code already exists',
  storeInUse: 'This store still holds stock or has movements: it cannot be deleted',
  itemInUse: 'This item has movements: it cannot be deleted',
  notEnough: (onHand: number, unit: string, store: string) => `Not enough stock: ${store} holds ${onHand} ${unit}`,
  serialNotInStore: (serial: string, store: string) => `Serial ${serial} is not in ${store}`,
  serialNotIssued: (serial: string) => `Serial ${serial} was not issued to this ticket`,
  serialExists: (serial: string) => `Serial ${serial} already exists for this item`,
  serialsRequired: 'Name the serial numbers of a serial-tracked item',
  quantityRequired: 'Enter a quantity',
  quantityForSerials: 'A serial-tracked item moves by serial numbers, not by quantity',
  sameStore: 'Choose two different stores',
  ticketRequired: 'Choose a ticket',
  noteRequired: 'Give a reason for the write-off',
  notReturnable: (n: number) => `Only ${n} can be returned from this ticket`,
  managerRole: 'Store managers must be users with the Store Manager role',
  deviceSerialItem: 'A replacement takes a serial-tracked item',
} as const;

export const MOVEMENT_KINDS = ['RECEIVE', 'TRANSFER', 'ISSUE', 'RETURN', 'WRITE_OFF'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];
export const MOVEMENT_LABELS: Record<MovementKind, string> = {
  RECEIVE: 'Received',
  TRANSFER: 'Transferred',
  ISSUE: 'Issued to ticket',
  RETURN: 'Returned from ticket',
  WRITE_OFF: 'Written off',
};

export const TRACKING = ['SERIAL', 'QUANTITY'] as const;
export type Tracking = (typeof TRACKING)[number];

const max = (n: number) => `Please use maximum ${n} characters`;
const text = (n: number) => z.string().trim().max(n, max(n));
const required = (n: number, label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(n, max(n));
const quantity = z
  .number({ message: 'Enter a quantity' })
  .int('Enter a whole number')
  .min(1, 'Enter a quantity of at least 1')
  .max(INVENTORY_LIMITS.quantity, `Enter at most ${INVENTORY_LIMITS.quantity}`);

// ---- stores

export const storeInputSchema = z.object({
  name: required(INVENTORY_LIMITS.name, 'Name'),
  assetId: idSchema.nullable().default(null),
  managerIds: z.array(idSchema).max(INVENTORY_LIMITS.managers, `Choose at most ${INVENTORY_LIMITS.managers} managers`).default([]),
});
export type StoreInput = z.infer<typeof storeInputSchema>;

export const inventoryUserSchema = z.object({ id: z.number().int(), name: z.string() });

export const storeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  assetId: z.number().int().nullable(),
  siteName: z.string().nullable(),
  managers: z.array(inventoryUserSchema),
  /** Items below their threshold in this store. */
  lowCount: z.number().int(),
  /** Whether the caller manages it. */
  managed: z.boolean(),
});
export type Store = z.infer<typeof storeSchema>;
export const storeListSchema = z.object({ contents: z.array(storeSchema), totalCount: z.number().int() });

// ---- items

export const itemInputSchema = z.object({
  code: required(INVENTORY_LIMITS.code, 'Code').regex(/^[A-Za-z0-9._/-]+$/, 'Use letters, digits and . _ / - only in a code'),
  name: required(INVENTORY_LIMITS.name, 'Name'),
  category: text(INVENTORY_LIMITS.text).default(''),
  make: text(INVENTORY_LIMITS.text).default(''),
  model: text(INVENTORY_LIMITS.text).default(''),
  unit: text(INVENTORY_LIMITS.unit).default('pcs'),
  tracking: z.enum(TRACKING, { message: 'Choose serial or quantity tracking' }),
  lowStockThreshold: z
    .number({ message: 'Enter a threshold' })
    .int('Enter a whole number')
    .min(0, 'Enter a threshold of 0 or more')
    .max(INVENTORY_LIMITS.quantity, `Enter at most ${INVENTORY_LIMITS.quantity}`)
    .default(0),
});
export type ItemInput = z.infer<typeof itemInputSchema>;
export const itemUpdateSchema = itemInputSchema.omit({ tracking: true });
export type ItemUpdate = z.infer<typeof itemUpdateSchema>;

export const itemSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  category: z.string(),
  make: z.string(),
  model: z.string(),
  unit: z.string(),
  tracking: z.enum(TRACKING),
  lowStockThreshold: z.number().int(),
  /** On hand over the stores the caller sees. */
  onHand: z.number().int(),
});
export type Item = z.infer<typeof itemSchema>;

const boolFlag = z.enum(['true', 'false']).optional();

export const itemQuerySchema = z.object({
  search: text(100).optional(),
  code: text(INVENTORY_LIMITS.code).optional(),
  category: text(INVENTORY_LIMITS.text).optional(),
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const itemListSchema = z.object({ contents: z.array(itemSchema), totalCount: z.number().int() });

export const stockQuerySchema = z.object({
  storeId: idCoerced.optional(),
  search: text(100).optional(),
  category: text(INVENTORY_LIMITS.text).optional(),
  tracking: z.enum(TRACKING).optional(),
  low: boolFlag,
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type StockQuery = z.infer<typeof stockQuerySchema>;

export const stockRowSchema = z.object({
  itemId: z.number().int(),
  code: z.string(),
  name: z.string(),
  category: z.string(),
  unit: z.string(),
  tracking: z.enum(TRACKING),
  lowStockThreshold: z.number().int(),
  storeId: z.number().int(),
  storeName: z.string(),
  onHand: z.number().int(),
  low: z.boolean(),
});
export type StockRow = z.infer<typeof stockRowSchema>;
export const stockListSchema = z.object({ contents: z.array(stockRowSchema), totalCount: z.number().int() });

export const categoryListSchema = z.object({ contents: z.array(z.string()) });

export const serialSchema = z.object({
  id: z.number().int(),
  serial: z.string(),
  /** The store it is in, or null when issued or written off. */
  storeId: z.number().int().nullable(),
  storeName: z.string().nullable(),
  status: z.enum(['IN_STORE', 'ISSUED', 'WRITTEN_OFF']),
  ticketId: z.number().int().nullable(),
});
export type Serial = z.infer<typeof serialSchema>;

export const itemDetailSchema = z.object({
  item: itemSchema,
  stock: z.array(z.object({ storeId: z.number().int(), storeName: z.string(), onHand: z.number().int(), low: z.boolean() })),
  serials: z.array(serialSchema),
  can: z.object({ change: z.boolean(), delete: z.boolean(), move: z.boolean() }),
});
export type ItemDetail = z.infer<typeof itemDetailSchema>;

// ---- movements

export const movementQuerySchema = z.object({
  itemId: idCoerced.optional(),
  storeId: idCoerced.optional(),
  ticketId: idCoerced.optional(),
  kind: z.enum(MOVEMENT_KINDS).optional(),
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const movementSchema = z.object({
  id: z.number().int(),
  kind: z.enum(MOVEMENT_KINDS),
  itemId: z.number().int(),
  itemCode: z.string(),
  itemName: z.string(),
  quantity: z.number().int(),
  fromStore: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  toStore: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  serial: z.string().nullable(),
  ticketId: z.number().int().nullable(),
  note: z.string(),
  actor: inventoryUserSchema.nullable(),
  createdAt: z.string(),
  /** When it was done at the site, when that was before it reached the server (sent from the phone's outbox). */
  performedAt: z.string().nullable(),
});
export type Movement = z.infer<typeof movementSchema>;
export const movementListSchema = z.object({ contents: z.array(movementSchema), totalCount: z.number().int() });

const serials = z
  .array(required(INVENTORY_LIMITS.serial, 'Serial number'))
  .max(INVENTORY_LIMITS.serialsPerMove, `Name at most ${INVENTORY_LIMITS.serialsPerMove} serial numbers at once`)
  .optional();

/**
 * One stock move. A quantity-tracked item moves by `quantity`, a serial-tracked one by `serials` (each one unit).
 * RECEIVE and RETURN put stock into `storeId`; ISSUE and WRITE_OFF take it out; TRANSFER moves it from `storeId`
 * to `toStoreId`. ISSUE and RETURN name the ticket.
 */
export const movementInputSchema = z.object({
  kind: z.enum(MOVEMENT_KINDS, { message: 'Choose what to do' }),
  itemId: idSchema,
  storeId: idSchema,
  toStoreId: idSchema.optional(),
  ticketId: idSchema.optional(),
  quantity: quantity.optional(),
  serials,
  note: text(INVENTORY_LIMITS.note).default(''),
});
export type MovementInput = z.infer<typeof movementInputSchema>;
export const movementResultSchema = z.object({ movements: z.array(movementSchema), message: z.string() });

export const replacementInputSchema = z.object({
  ticketId: idSchema,
  deviceId: idSchema,
  itemId: idSchema,
  storeId: idSchema,
  serial: required(INVENTORY_LIMITS.serial, 'Serial number'),
  note: text(INVENTORY_LIMITS.note).default(''),
});
export type ReplacementInput = z.infer<typeof replacementInputSchema>;
export const replacementResultSchema = z.object({
  movement: movementSchema,
  device: z.object({ id: z.number().int(), serialNumber: z.string(), vendor: z.string(), model: z.string() }),
  message: z.string(),
});

/** The payload of `inventory.moved`: which items and stores changed (screens refetch). */
export interface InventoryMovedPayload {
  itemIds: number[];
  storeId: number;
  assetId: number | null;
}
/** The payload of `inventory.low-stock`: an item fell below its threshold in a store. */
export interface InventoryLowStockPayload {
  itemId: number;
  code: string;
  name: string;
  storeId: number;
  storeName: string;
  assetId: number | null;
  onHand: number;
  threshold: number;
}
