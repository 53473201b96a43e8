import { z } from 'zod';
import { INT4_MAX, idCoerced } from './common.ts';
import type { PermissionCodename } from './permissions.ts';

export const EQUIPMENT_PERMISSIONS = {
  view: 'view_equipment',
  add: 'add_equipment',
  change: 'change_equipment',
  delete: 'delete_equipment',
} as const satisfies Record<string, PermissionCodename>;

export const EQUIPMENT_CATEGORIES = ['Generator', 'UPS', 'Battery', 'Camera', 'Rectifier', 'HVAC', 'Meter', 'Other'] as const;
export const EQUIPMENT_STATUSES = ['ACTIVE', 'UNDER_MAINTENANCE', 'RETIRED'] as const;
export const EQUIPMENT_STATUS_LABELS: Record<(typeof EQUIPMENT_STATUSES)[number], string> = {
  ACTIVE: 'Active',
  UNDER_MAINTENANCE: 'Under maintenance',
  RETIRED: 'Retired',
};
/** A warranty ending within this many days counts as "expiring soon". */
export const WARRANTY_SOON_DAYS = 30;
export const EQUIPMENT_LIMITS = { name: 120, text: 80, serial: 80, notes: 2000 } as const;

export const EQUIPMENT_MESSAGES = {
  created: 'Successfully Created',
  updated: 'Successfully Updated',
  deleted: 'Successfully Deleted',
  serialTaken: 'Another equipment already has this serial number',
  deviceElsewhere: 'The linked device must be at the same site as the equipment',
  deviceUnknown: 'Device not found',
  siteUnknown: 'Site not found',
  warrantyBeforeInstall: 'Warranty end must not be before the install date',
  nameRequired: 'Name is required',
  siteRequired: 'Choose a site',
  serialRequired: 'Serial number is required',
  date: 'Enter a date as YYYY-MM-DD',
} as const;

const max = (n: number) => `Please use maximum ${n} characters`;
const text = (n: number) => z.string().trim().max(n, max(n));
const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, EQUIPMENT_MESSAGES.date)
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    EQUIPMENT_MESSAGES.date,
  );

export const equipmentInputSchema = z
  .strictObject({
    assetId: z.number({ message: EQUIPMENT_MESSAGES.siteRequired }).int().min(1).max(INT4_MAX),
    name: text(EQUIPMENT_LIMITS.name).min(1, EQUIPMENT_MESSAGES.nameRequired),
    category: z.enum(EQUIPMENT_CATEGORIES, { message: `Category must be one of ${EQUIPMENT_CATEGORIES.join(', ')}` }),
    make: text(EQUIPMENT_LIMITS.text).default(''),
    model: text(EQUIPMENT_LIMITS.text).default(''),
    serial: text(EQUIPMENT_LIMITS.serial).min(1, EQUIPMENT_MESSAGES.serialRequired),
    installDate: day.nullable().default(null),
    warrantyUntil: day.nullable().default(null),
    deviceId: z.number().int().min(1).max(INT4_MAX).nullable().default(null),
    notes: text(EQUIPMENT_LIMITS.notes).default(''),
    status: z.enum(EQUIPMENT_STATUSES, { message: 'Status must be Active, Under maintenance or Retired' }).default('ACTIVE'),
  })
  .refine((v) => !v.installDate || !v.warrantyUntil || v.warrantyUntil >= v.installDate, {
    message: EQUIPMENT_MESSAGES.warrantyBeforeInstall,
    path: ['warrantyUntil'],
  });
export type EquipmentInput = z.infer<typeof equipmentInputSchema>;

export const equipmentSchema = z.object({
  id: z.number().int(),
  assetId: z.number().int(),
  siteName: z.string(),
  name: z.string(),
  category: z.string(),
  make: z.string(),
  model: z.string(),
  serial: z.string(),
  installDate: z.string().nullable(),
  warrantyUntil: z.string().nullable(),
  deviceId: z.number().int().nullable(),
  deviceLabel: z.string().nullable(),
  notes: z.string(),
  status: z.enum(EQUIPMENT_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Equipment = z.infer<typeof equipmentSchema>;

export const equipmentListQuerySchema = z.strictObject({
  search: z.string().trim().min(1).max(100, max(100)).optional(),
  assetId: idCoerced.optional(),
  category: z.enum(EQUIPMENT_CATEGORIES).optional(),
  status: z.enum(EQUIPMENT_STATUSES).optional(),
  warranty: z.enum(['expiring', 'expired', 'valid']).optional(),
  deviceId: idCoerced.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type EquipmentListQuery = z.infer<typeof equipmentListQuerySchema>;

export const equipmentListSchema = z.object({ contents: z.array(equipmentSchema), totalCount: z.number().int() });
export type EquipmentList = z.infer<typeof equipmentListSchema>;

export const equipmentOverviewSchema = z.object({
  contents: z.array(
    z.object({
      assetId: z.number().int(),
      siteName: z.string(),
      total: z.number().int(),
      active: z.number().int(),
      underMaintenance: z.number().int(),
      retired: z.number().int(),
      linked: z.number().int(),
      warrantyExpiringSoon: z.number().int(),
      warrantyExpired: z.number().int(),
    }),
  ),
  totals: z.object({
    total: z.number().int(),
    warrantyExpiringSoon: z.number().int(),
    warrantyExpired: z.number().int(),
    sites: z.number().int(),
  }),
});
export type EquipmentOverview = z.infer<typeof equipmentOverviewSchema>;

export const equipmentHistorySchema = z.object({
  contents: z.array(
    z.object({
      id: z.number().int(),
      ticketId: z.string(),
      title: z.string(),
      status: z.string(),
      priority: z.string(),
      createdAt: z.string(),
      resolvedDate: z.string().nullable(),
      /** Why the ticket belongs to this equipment: raised on its linked device, or names its serial. */
      reason: z.enum(['device', 'serial']),
    }),
  ),
});
export type EquipmentHistory = z.infer<typeof equipmentHistorySchema>;
