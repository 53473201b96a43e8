import { z } from 'zod';
import { INT4_MAX, idSchema } from './common.ts';
import { idList, limitParam, orderBy, pageParam, searchText } from './query.ts';
import { roleSchema } from './role-schemas.ts';
import { adminUserSchema, userNameSchema } from './user-admin.ts';

/** Users as other screens see them, the sites assigned to each user, and group permissions (SPEC 3, 6, 7). */

export const userListQuerySchema = z.strictObject({
  ids: idList.optional(),
  page: pageParam,
  limit: limitParam(500, 20),
  searchText: searchText.optional(),
  role: roleSchema.optional(),
  orderBy: orderBy(['firstname', 'lastname', 'username', 'email', 'createdAt', 'id'] as const).default('firstname'),
  /** Administrators may also list deactivated users. */
  status: z.enum(['active', 'deactivated', 'all']).default('active'),
});
/** Holders of view_user get users in full; everyone else gets names only, for pickers (never contact details or rights). */
export const userListSchema = z.object({
  contents: z.array(z.union([adminUserSchema, userNameSchema])),
  totalCount: z.number().int(),
});

export const userAssetSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  assetId: z.number().int(),
  asset: z.object({ id: z.number().int(), name: z.string(), address: z.array(z.string()) }),
  createdAt: z.string(),
});
export type UserAsset = z.infer<typeof userAssetSchema>;

export const userAssetQuerySchema = z.strictObject({
  userId: z.coerce.number({ message: 'userId must be a number' }).int().min(1).max(INT4_MAX),
  page: pageParam,
  limit: limitParam(500, 50),
  searchText: searchText.optional(),
});
export const userAssetListSchema = z.object({ contents: z.array(userAssetSchema), totalCount: z.number().int() });

/** Assign sites to a user by id, or every site under an address (a region or a city). */
export const userAssetAssignSchema = z
  .object({
    userId: idSchema,
    assetIds: z.array(idSchema).max(500).default([]),
    address: z.array(z.string().trim().min(1).max(80)).max(6).optional(),
  })
  .refine((v) => v.assetIds.length > 0 || (v.address && v.address.length > 0), {
    message: 'Choose at least one site or an address',
    path: ['assetIds'],
  });
export const userAssetAssignResultSchema = z.object({ assigned: z.number().int() });
export const userAssetRemoveSchema = z.object({
  userId: idSchema,
  assetIds: z.array(idSchema).min(1).max(500),
});
export const userAssetRemoveResultSchema = z.object({ removed: z.number().int() });

export const USER_ASSET_MESSAGES = {
  assigned: (n: number) => `${n} site${n === 1 ? '' : 's'} assigned`,
  removed: (n: number) => `${n} site${n === 1 ? '' : 's'} removed`,
} as const;

/** Codenames the device permission screen manages, per group. */
export const DEVICE_PERMISSIONS = [
  { codename: 'view_device', name: 'Can view device' },
  { codename: 'add_device', name: 'Can add device' },
  { codename: 'change_device', name: 'Can change device' },
  { codename: 'delete_device', name: 'Can delete device' },
  { codename: 'edit_alarm_config', name: 'Can edit alarm config' },
  { codename: 'view_asset', name: 'Can view asset' },
  { codename: 'add_asset', name: 'Can add asset' },
  { codename: 'change_asset', name: 'Can change asset' },
  { codename: 'delete_asset', name: 'Can delete asset' },
] as const;
export const DEVICE_PERMISSION_CODENAMES = DEVICE_PERMISSIONS.map((p) => p.codename);

export const groupPermissionsSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  userCount: z.number().int(),
  permissions: z.array(z.object({ codename: z.string(), name: z.string() })),
});
export const groupPermissionsListSchema = z.object({ contents: z.array(groupPermissionsSchema), totalCount: z.number().int() });
export const devicePermissionUpdateSchema = z.object({
  codenames: z.array(z.enum(DEVICE_PERMISSION_CODENAMES as [string, ...string[]], { message: 'Unknown permission' })).max(20),
});
export const PERMISSION_MESSAGES = { updated: 'Permission for selected events are updated successfully!' } as const;
