import { z } from 'zod';
import { idCoerced, idSchema } from './common.ts';
import { MAP } from './map.ts';
import { idList, limitParam, orderBy, pageParam, queryBoolean, repeated, searchText } from './query.ts';
import { roleSchema } from './role-schemas.ts';

/** Sites (assets), their customers and the views built on them: tree, map, site summary (SPEC 2.11–2.13, 3, 7). */

export const ASSET_MESSAGES = {
  alreadyExists: 'Assets Already Exists',
  created: 'Asset created successfully',
  updated: 'Asset updated successfully',
  deleted: 'Asset deleted successfully',
  customerCreated: 'Customer created successfully',
  customerUpdated: 'Customer updated successfully',
  customerDeleted: 'Customer deleted successfully',
  customerExists: 'A customer with this name already exists',
  noData: 'No Data Found',
  mapFailed: 'Failed to load map! Please check your connectivity.',
} as const;

/** Asset tree (SPEC 9). */
export const ASSET_TREE = {
  apiLimit: 500,
  callIntervalMs: 10,
  devicesUnderAsset: 15,
  childPageSize: 10,
  entityMappingFetch: 50,
  searchLimit: 500,
  searchDebounceMs: 1000,
  defaultStatusColour: '#4F6F77',
  alarmRefreshSec: 30,
  maxAddressLevels: 6,
} as const;

/** Map view (SPEC 2.12, 9): in its own module, which the web app's main bundle can import without zod. */
export { MAP } from './map.ts';

/** SPEC 2.12: marker size grows with the zoom level. */
export const markerSize = (level: number) => ({ width: Math.min(15 + level + 12, 40), height: Math.min(20 + level + 12, 50) });

/** SPEC 5: a site is on the map unless latitude and longitude are both empty or zero. */
export const hasMapLocation = (lat: number | null | undefined, lng: number | null | undefined) => !(!lat && !lng);

/** Site summary (SPEC 2.11, 9). */
export const SITE_SUMMARY = {
  otherTypesDelayMs: 2000,
  exportMaxRows: 10_000,
  exportFileName: 'SiteSummary',
  detailedRowsOptions: [5, 10, 25, 50] as const,
  detailedDefaultRows: 10,
} as const;

/** Cache sizes (SPEC 9: up to 1000 entries per kind, oldest evicted first). */
export const CACHE_MAX_ENTRIES = 1000;

const trimmed = (max: number) => z.string().trim().max(max, `Please use maximum ${max} characters`);
const latitude = z.number().min(-90, 'Latitude is between -90 and 90').max(90, 'Latitude is between -90 and 90');
const longitude = z.number().min(-180, 'Longitude is between -180 and 180').max(180, 'Longitude is between -180 and 180');

export const assetMetadataSchema = z
  .object({
    assetCode: trimmed(60).optional(),
    merchantId: trimmed(60).optional(),
  })
  .catchall(z.union([z.string().max(500), z.number(), z.boolean(), z.null()]));

export const assetRefSchema = z.object({ id: z.number().int(), name: z.string() });

/** Between a device's (camera's, alarm's) label and its site's name, wherever both are written on one line. */
export const SITE_SEPARATOR = ' · ';
/**
 * How a device, camera or alarm is named wherever it is named: its label and its site's name, since labels repeat at
 * every site (each site has its RTR-01). Screens, notifications and exports all name things this way.
 */
export const nameWithSite = (label: string, siteName: string | null | undefined): string =>
  siteName ? `${label}${SITE_SEPARATOR}${siteName}` : label;

export const assetRoleUserSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string() });

export const assetSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  address: z.array(z.string()),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  metadata: assetMetadataSchema,
  customerId: z.number().int().nullable(),
  customerName: z.string().nullable(),
  deviceCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** With showRoles: the users assigned to the site, by role. */
  roles: z.record(z.string(), z.array(assetRoleUserSchema)).optional(),
});
export type Asset = z.infer<typeof assetSchema>;

const assetFields = {
  name: trimmed(120).min(1, 'Name is required'),
  address: z
    .array(trimmed(80).min(1, 'Address levels cannot be empty'))
    .min(1, 'Add at least one address level')
    .max(ASSET_TREE.maxAddressLevels, `At most ${ASSET_TREE.maxAddressLevels} address levels`),
  latitude: latitude.nullable(),
  longitude: longitude.nullable(),
  metadata: assetMetadataSchema,
  customerId: idSchema.nullable(),
};
export const assetInputSchema = z.object({
  ...assetFields,
  latitude: assetFields.latitude.default(null),
  longitude: assetFields.longitude.default(null),
  metadata: assetFields.metadata.default({}),
  customerId: assetFields.customerId.default(null),
});
export type AssetInput = z.infer<typeof assetInputSchema>;
/** A change names only the fields it changes. */
export const assetUpdateSchema = z.object(assetFields).partial();

export const ASSET_ORDER_FIELDS = ['name', 'createdAt', 'updatedAt', 'id', 'assetCode'] as const;
export const ASSET_SEARCH_KEYS = ['name', 'assetCode', 'merchantId', 'address'] as const;

export const assetListQuerySchema = z.strictObject({
  ids: idList.optional(),
  page: pageParam,
  limit: limitParam(500, 20),
  orderBy: orderBy(ASSET_ORDER_FIELDS).default('name'),
  name__iexact: trimmed(120).optional(),
  name__icontains: trimmed(120).optional(),
  metadata__assetCode: trimmed(60).optional(),
  metadata__merchantId: trimmed(60).optional(),
  searchText: searchText.optional(),
  searchKeys: z
    .string()
    .transform((v) => v.split(',').map((s) => s.trim()))
    .pipe(z.array(z.enum(ASSET_SEARCH_KEYS, { message: `searchKeys must be among ${ASSET_SEARCH_KEYS.join(', ')}` })))
    .optional(),
  customerId: idCoerced.optional(),
  /** Sites whose address starts with these levels (repeat the parameter per level). */
  address: repeated(trimmed(80), ASSET_TREE.maxAddressLevels, 'address').optional(),
  hasLocation: queryBoolean.optional(),
});
export type AssetListQuery = z.infer<typeof assetListQuerySchema>;

export const assetDetailQuerySchema = z.strictObject({
  showRoles: queryBoolean.optional(),
  userRole: roleSchema.optional(),
});

export const assetListSchema = z.object({ contents: z.array(assetSchema), totalCount: z.number().int() });

/* ------------------------------------------------------------------ tree */

export const TREE_NODE_TYPES = ['level', 'asset', 'device', 'loadMore'] as const;
export type TreeNodeType = (typeof TREE_NODE_TYPES)[number];

/** SPEC 3 tree node: text, children, iconColor, nodeType, icon, assetId, id. */
export const treeNodeSchema = z.object({
  id: z.string(),
  text: z.string(),
  nodeType: z.enum(TREE_NODE_TYPES),
  icon: z.string(),
  iconColor: z.string(),
  assetId: z.number().int().nullable(),
  /** Whether the node can be expanded (its children load lazily). */
  children: z.boolean(),
  /** Address levels of a level node (its own level last). */
  path: z.array(z.string()).optional(),
  /** Sites under a level node. */
  count: z.number().int().optional(),
  deviceId: z.number().int().optional(),
  deviceType: z.string().optional(),
  status: z.string().optional(),
  alarmStatus: z.string().nullable().optional(),
  isParent: z.boolean().optional(),
});
export type TreeNode = z.infer<typeof treeNodeSchema>;

export const assetTreeQuerySchema = z.strictObject({
  path: repeated(trimmed(80), ASSET_TREE.maxAddressLevels, 'path').optional(),
  page: pageParam,
  limit: limitParam(ASSET_TREE.apiLimit, ASSET_TREE.apiLimit),
});

export const assetTreeSchema = z.object({
  contents: z.array(treeNodeSchema),
  totalCount: z.number().int(),
  /** Visible sites under this node. */
  siteCount: z.number().int(),
});

export const assetTreeSearchQuerySchema = z.strictObject({
  searchText: searchText.min(1, 'Enter text to search'),
  limit: limitParam(ASSET_TREE.searchLimit, ASSET_TREE.searchLimit),
});
/** Search results: matching sites and matching devices, each with its site and address path. */
export const assetTreeSearchSchema = z.object({
  sites: z.array(treeNodeSchema),
  devices: z.array(treeNodeSchema.extend({ siteName: z.string().nullable() })),
});

/* ------------------------------------------------------------------ site summary and map */

export const deviceCountSchema = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  notC: z.number().int(),
});
export type DeviceCount = z.infer<typeof deviceCountSchema>;

export const SITE_SUMMARY_ORDER_FIELDS = ['name', 'total', 'online', 'offline', 'notC'] as const;
export const siteSummaryQuerySchema = z.strictObject({
  page: pageParam,
  limit: limitParam(SITE_SUMMARY.exportMaxRows, 10),
  searchText: searchText.optional(),
  orderBy: orderBy(SITE_SUMMARY_ORDER_FIELDS).default('name'),
  /** Count only devices of this type (a card of the dashboard). */
  type: z.string().trim().max(40).optional(),
  path: repeated(trimmed(80), ASSET_TREE.maxAddressLevels, 'path').optional(),
});
export const siteSummaryRowSchema = deviceCountSchema.extend({
  id: z.number().int(),
  name: z.string(),
  address: z.array(z.string()),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type SiteSummaryRow = z.infer<typeof siteSummaryRowSchema>;
export const siteSummarySchema = z.object({ contents: z.array(siteSummaryRowSchema), totalCount: z.number().int() });

export const detailedSummaryQuerySchema = z.strictObject({
  page: pageParam,
  limit: z.coerce.number().int().min(5, 'limit must be at least 5').max(50, 'limit must be at most 50').default(10),
  searchText: searchText.optional(),
  path: repeated(trimmed(80), ASSET_TREE.maxAddressLevels, 'path').optional(),
});
export const detailedSummaryRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  siteId: z.string().nullable(),
  routerStatus: z.string().nullable(),
  dvrCount: z.number().int(),
  dvrOffline: z.number().int(),
  cameraCount: z.number().int(),
  cameraVideoLoss: z.number().int(),
  lastUpdated: z.string().nullable(),
});
export const detailedSummarySchema = z.object({ contents: z.array(detailedSummaryRowSchema), totalCount: z.number().int() });

export const mapQuerySchema = z.strictObject({
  parentDevice: z.string().trim().toUpperCase().max(40).default(MAP.defaultParentDevice),
  page: pageParam,
  limit: limitParam(MAP.pageSize, MAP.pageSize),
  searchText: searchText.optional(),
  path: repeated(trimmed(80), ASSET_TREE.maxAddressLevels, 'path').optional(),
});
/** A marker: compact on purpose, the popup loads the counts when opened. */
export const mapSiteSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  level1: z.string().nullable(),
  status: z.string().nullable(),
  alarmStatus: z.string().nullable(),
});
export type MapSite = z.infer<typeof mapSiteSchema>;
export const mapSiteListSchema = z.object({ contents: z.array(mapSiteSchema), totalCount: z.number().int() });

export const siteDeviceCountsSchema = deviceCountSchema.extend({
  id: z.number().int(),
  name: z.string(),
  address: z.array(z.string()),
  byType: z.array(deviceCountSchema.extend({ type: z.string() })),
});

/* ------------------------------------------------------------------ customers (organisations owning sites) */

export const siteCustomerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  siteCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SiteCustomer = z.infer<typeof siteCustomerSchema>;

/** Empty text clears a field; a missing field stays as it is. */
const blankToNull = <T>(v: T | null | undefined) => (v === undefined ? undefined : v ? v : null);
const optionalText = (max: number) => trimmed(max).nullable().optional().transform(blankToNull);

const siteCustomerFields = {
  name: trimmed(120).min(1, 'Name is required'),
  email: z
    .union([z.email('Enter a valid e-mail address').max(254), z.literal(''), z.null()])
    .optional()
    .transform(blankToNull),
  phone: optionalText(30),
  address: optionalText(300),
  city: optionalText(80),
  country: optionalText(80),
};
export const siteCustomerInputSchema = z.object(siteCustomerFields);
export const siteCustomerUpdateSchema = z.object(siteCustomerFields).partial();

export const siteCustomerListQuerySchema = z.strictObject({
  page: pageParam,
  limit: limitParam(500, 20),
  searchText: searchText.optional(),
  orderBy: orderBy(['name', 'createdAt', 'siteCount'] as const).default('name'),
  ids: idList.optional(),
});
export const siteCustomerListSchema = z.object({ contents: z.array(siteCustomerSchema), totalCount: z.number().int() });

/**
 * The IoT framework credentials of a customer (its devices' provisioning profile): where its devices connect and
 * the key they provision themselves with. The secret is write-only: answers say only that it is set, except the
 * answer of the regeneration that made a new one, which carries it once.
 */
export const iotCredentialsSchema = z.object({
  customerId: z.number().int(),
  mqttUrl: z.string(),
  httpUrl: z.string(),
  provisionDeviceKey: z.string(),
  provisionDeviceSecretSet: z.boolean(),
  /** Only in the answer of a regeneration: the new secret, shown this once. */
  provisionDeviceSecret: z.string().optional(),
  secretRotatedAt: z.string(),
});

const provisionCredential = (what: string, min: number) =>
  z
    .string()
    .trim()
    .min(min, `${what} needs at least ${min} characters`)
    .max(128, `${what} takes at most 128 characters`)
    .regex(/^[\w.~-]+$/, `${what} may hold letters, digits and . _ ~ - only`);

/** A tenant administrator sets the provisioning key or secret (ThingsBoard's provision key and secret). */
export const iotCredentialsUpdateSchema = z
  .strictObject({
    provisionDeviceKey: provisionCredential('The provision device key', 8).optional(),
    provisionDeviceSecret: provisionCredential('The provision device secret', 16).optional(),
  })
  .refine((v) => v.provisionDeviceKey !== undefined || v.provisionDeviceSecret !== undefined, {
    message: 'Give a new provision device key, a new secret, or both',
  });
