import { z } from 'zod';
import { idCoerced, idSchema } from './common.ts';
import { arrayOf, idList, limitParam, nullableIdFilter, orderBy, pageParam, queryBoolean, repeated, searchText } from './query.ts';
import { assetRefSchema } from './sites.ts';

/** Devices, their templates and mappings (SPEC 2.4, 2.14, 3, 4, 5, 7). */

export const DEVICE_TYPES = [
  'ROUTER',
  'DVR',
  'CAMERA',
  'HDD',
  'ALARMPANEL',
  'GENERATOR',
  'UPS',
  'RECTIFIER',
  'ETH',
  'METER',
  'SENSOR',
  'ACCESSCONTROL',
  'RELAY',
] as const;
export const deviceTypeSchema = z.enum(DEVICE_TYPES, { message: `type must be one of ${DEVICE_TYPES.join(', ')}` });
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const DEVICE_TYPE_LABELS: Record<DeviceType, string> = {
  ROUTER: 'Router',
  DVR: 'DVR/NVR',
  CAMERA: 'Camera',
  HDD: 'HDD',
  ALARMPANEL: 'Alarm Panel',
  GENERATOR: 'Generator',
  UPS: 'UPS',
  RECTIFIER: 'Rectifier',
  ETH: 'Ethernet RTU',
  METER: 'Meter',
  SENSOR: 'Sensor',
  ACCESSCONTROL: 'Access Control',
  RELAY: 'Relay',
};

/** SPEC 3 device type config: the parent type (a site's router) is labelled Site. */
export const PARENT_DEVICE_TYPE: DeviceType = 'ROUTER';
export const DEFAULT_DEVICE_TYPE_CONFIG: { type: DeviceType; label: string }[] = [
  { type: 'ROUTER', label: 'Site' },
  { type: 'DVR', label: 'DVR/NVR' },
  { type: 'ALARMPANEL', label: 'Alarm Panel' },
];
export const DEVICE_TYPE_LIST_LIMIT = 50;

/** Which device types a device may hang under: a router is the site's parent device. */
export const ALLOWED_PARENT_TYPES: Record<DeviceType, readonly DeviceType[]> = {
  ROUTER: [],
  DVR: ['ROUTER'],
  CAMERA: ['DVR'],
  HDD: ['DVR'],
  ALARMPANEL: ['ROUTER'],
  GENERATOR: ['ROUTER', 'ETH'],
  UPS: ['ROUTER', 'ETH'],
  RECTIFIER: ['ROUTER', 'ETH'],
  ETH: ['ROUTER'],
  METER: ['ROUTER', 'ETH'],
  SENSOR: ['ROUTER', 'ETH', 'ALARMPANEL'],
  ACCESSCONTROL: ['ROUTER'],
  RELAY: ['ROUTER', 'ETH'],
};

/** SPEC 4 device status. */
export const DEVICE_STATUSES = ['Online', 'Offline', 'Not yet connected'] as const;
export const deviceStatusSchema = z.enum(DEVICE_STATUSES, { message: `status must be one of ${DEVICE_STATUSES.join(', ')}` });
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export const DEVICE_STATUS_COLOURS: Record<DeviceStatus, string> = {
  Online: '#2e7d32',
  Offline: '#d32f2f',
  'Not yet connected': '#9e9e9e',
};
/** Site summary wording of the statuses (SPEC 2.11). */
export const SUMMARY_STATUS_LABELS = { online: 'Connected', offline: 'Disconnected', notC: 'Not Connected' } as const;

export const ALARM_STATUSES = ['NORMAL', 'WARNING', 'MINOR', 'MAJOR', 'CRITICAL'] as const;
export const alarmStatusSchema = z.enum(ALARM_STATUSES, { message: `alarmStatus must be one of ${ALARM_STATUSES.join(', ')}` });
export type AlarmStatus = (typeof ALARM_STATUSES)[number];
export const ALARM_STATUS_COLOURS: Record<AlarmStatus, string> = {
  NORMAL: '#2e7d32',
  WARNING: '#f9a825',
  MINOR: '#fb8c00',
  MAJOR: '#e64a19',
  CRITICAL: '#c62828',
};
/** Tree colour of a node: its alarm status, else the default status colour (SPEC 9). */
export const alarmColour = (alarmStatus: string | null | undefined): string =>
  (alarmStatus && ALARM_STATUS_COLOURS[alarmStatus as AlarmStatus]) || '#4F6F77';

/* ------------------------------------------------------------------ device */

export const DEVICE_TOGGLE_KEYS = ['maintenance', 'muteDevice', 'enableDevice'] as const;
export type DeviceToggleKey = (typeof DEVICE_TOGGLE_KEYS)[number];

const text = (max: number) => z.string().trim().max(max, `Please use maximum ${max} characters`);

export const deviceMetadataSchema = z
  .object({
    muteDevice: z.boolean().default(false),
    maintenance: z.boolean().default(false),
    enableDevice: z.boolean().default(true),
    vendor: text(80).optional(),
    model: text(80).optional(),
    serialNumber: text(80).optional(),
    ipAddress: text(64).optional(),
    firmware: text(40).optional(),
  })
  .catchall(z.union([z.string().max(500), z.number(), z.boolean(), z.null()]));
export type DeviceMetadata = z.infer<typeof deviceMetadataSchema>;

/**
 * Metadata keys that hold a secret of the device: SNMP communities and v3 keys, RTSP and HTTP passwords, tokens of
 * gateways, API keys. Write-only: never in an answer, export, activity entry or log line (answers list the names of
 * those that are set in `secrets`).
 */
export const DEVICE_SECRET_KEY =
  /community|passw(or)?d|passphrase|pass$|secret|token|credential|api[-_]?key|auth[-_]?key|priv[-_]?key|private[-_]?key/i;
export const isDeviceSecretKey = (key: string) => DEVICE_SECRET_KEY.test(key);
/** A URL with its user name and password replaced (`rtsp://***@host/…`); other text as it is. */
export const withoutUrlCredentials = (value: string) => value.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@');

/** The metadata as answered: secret keys left out (their names in `secrets`), URL credentials replaced. */
export function publicMetadata<T extends Record<string, unknown>>(metadata: T): { metadata: T; secrets: string[] } {
  const out: Record<string, unknown> = {};
  const secrets: string[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    if (isDeviceSecretKey(key)) {
      if (value !== null && value !== undefined && value !== '') secrets.push(key);
    } else out[key] = typeof value === 'string' ? withoutUrlCredentials(value) : value;
  }
  return { metadata: out as T, secrets: secrets.sort() };
}

/** A stored value shown by the dashboards: the last known reading of each key. */
export const deviceStateSchema = z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()]));
export type DeviceState = z.infer<typeof deviceStateSchema>;

export const deviceRefSchema = z.object({ id: z.number().int(), name: z.string(), label: z.string(), type: z.string() });

export const deviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  type: deviceTypeSchema,
  status: deviceStatusSchema,
  alarmStatus: z.string().nullable(),
  alarmUpdatedAt: z.string().nullable(),
  lastActivityAt: z.string().nullable(),
  assetId: z.number().int().nullable(),
  asset: assetRefSchema.nullable(),
  parentId: z.number().int().nullable(),
  parent: deviceRefSchema.nullable(),
  isParent: z.boolean(),
  childDevicesCount: z.number().int(),
  templateId: z.number().int().nullable(),
  discovered: z.boolean(),
  metadata: deviceMetadataSchema,
  state: deviceStateSchema,
  stateUpdatedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Names of the secret metadata keys that are set (the values are write-only). */
  secrets: z.array(z.string()),
});
export type Device = z.infer<typeof deviceSchema>;

/**
 * The credential a device connects with, answered only by the explicit copy action (ThingsBoard's "Copy access
 * token", which reads the device's credentials): never part of a device answer, and each read is in the activity log.
 */
export const deviceAccessTokenSchema = z.object({ deviceId: z.number().int(), accessToken: z.string() });
export type DeviceAccessToken = z.infer<typeof deviceAccessTokenSchema>;

const deviceFields = {
  label: text(120).min(1, 'Label is required'),
  type: deviceTypeSchema,
  assetId: idSchema.nullable(),
  parentId: idSchema.nullable(),
  templateId: idSchema.nullable(),
  metadata: deviceMetadataSchema,
};
export const deviceInputSchema = z.object({
  ...deviceFields,
  assetId: deviceFields.assetId.default(null),
  parentId: deviceFields.parentId.default(null),
  templateId: deviceFields.templateId.default(null),
  metadata: deviceFields.metadata.default({ muteDevice: false, maintenance: false, enableDevice: true }),
});
export type DeviceInput = z.infer<typeof deviceInputSchema>;
/** A change names only the fields it changes (metadata keys are merged into the stored ones). */
export const deviceUpdateSchema = z
  .object({
    ...deviceFields,
    metadata: z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])),
  })
  .partial();

export const DEVICE_ORDER_FIELDS = [
  'name',
  'label',
  'type',
  'status',
  'alarmStatus',
  'createdAt',
  'updatedAt',
  'lastActivityAt',
  'id',
] as const;
export const DEVICE_SEARCH_KEYS = ['label', 'name', 'type', 'site__name'] as const;

const csvOf = <T extends z.ZodType>(item: T, what: string) =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(arrayOf(item).min(1, `${what} cannot be empty`).max(20));

export const deviceListQuerySchema = z.strictObject({
  page: pageParam,
  limit: limitParam(500, 20),
  orderBy: orderBy(DEVICE_ORDER_FIELDS).default('name'),
  /** groupBy=type lists the device types present with their counts (SPEC 7, limit 50). */
  groupBy: z.literal('type', { message: 'groupBy must be type' }).optional(),
  ids: idList.optional(),
  name__icontains: text(200).optional(),
  name__startswith: text(400).optional(),
  label__icontains: text(200).optional(),
  assetId: nullableIdFilter.optional(),
  parentId: nullableIdFilter.optional(),
  type: csvOf(deviceTypeSchema, 'type').optional(),
  status: csvOf(deviceStatusSchema, 'status').optional(),
  alarmStatus: csvOf(alarmStatusSchema, 'alarmStatus').optional(),
  isParent: queryBoolean.optional(),
  discovered: queryBoolean.optional(),
  templateId: idCoerced.optional(),
  searchText: searchText.optional(),
  searchKeys: csvOf(
    z.enum(DEVICE_SEARCH_KEYS, { message: `searchKeys must be among ${DEVICE_SEARCH_KEYS.join(', ')}` }),
    'searchKeys',
  ).optional(),
  /** Devices of the sites whose address starts with these levels (repeat per level). */
  path: repeated(text(80), 6, 'path').optional(),
});
export type DeviceListQuery = z.infer<typeof deviceListQuerySchema>;
export const deviceListSchema = z.object({ contents: z.array(deviceSchema), totalCount: z.number().int() });
export const deviceTypeCountSchema = z.object({ type: deviceTypeSchema, label: z.string(), count: z.number().int() });
export const deviceTypeListSchema = z.object({ contents: z.array(deviceTypeCountSchema), totalCount: z.number().int() });

/** The compact list feeds trees, maps and pickers: a device without its state and metadata. */
export const compactDeviceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  label: z.string(),
  type: deviceTypeSchema,
  status: deviceStatusSchema,
  alarmStatus: z.string().nullable(),
  alarmUpdatedAt: z.string().nullable(),
  assetId: z.number().int().nullable(),
  parentId: z.number().int().nullable(),
  isParent: z.boolean(),
  site: assetRefSchema.nullable().optional(),
  hasChildren: z.boolean().optional(),
});
export type CompactDevice = z.infer<typeof compactDeviceSchema>;

export const compactListQuerySchema = z.strictObject({
  groupBy: z.literal('site', { message: 'groupBy must be site' }).optional(),
  orderBy: orderBy(['alarmStatus', 'label', 'name', 'id'] as const).default('label'),
  includeSite: queryBoolean.optional(),
  checkChildExist: queryBoolean.optional(),
  isParent: queryBoolean.optional(),
  assetId: nullableIdFilter.optional(),
  parentId: nullableIdFilter.optional(),
  name__startswith: text(400).optional(),
  ids: idList.optional(),
  alarmUpdatedAt__gt: z.iso.datetime({ offset: true, message: 'alarmUpdatedAt__gt must be an ISO date-time' }).optional(),
  label__icontains: text(200).optional(),
  type: csvOf(deviceTypeSchema, 'type').optional(),
  status: csvOf(deviceStatusSchema, 'status').optional(),
  page: pageParam,
  limit: limitParam(500, 500),
});
export type CompactListQuery = z.infer<typeof compactListQuerySchema>;
export const compactListSchema = z.object({ contents: z.array(compactDeviceSchema), totalCount: z.number().int() });
export const compactSiteGroupSchema = z.object({ site: assetRefSchema.nullable(), devices: z.array(compactDeviceSchema) });
export const compactGroupedSchema = z.object({ contents: z.array(compactSiteGroupSchema), totalCount: z.number().int() });

export const statusCountsQuerySchema = z.strictObject({
  types: csvOf(deviceTypeSchema, 'types').optional(),
  assetId: idCoerced.optional(),
  path: repeated(text(80), 6, 'path').optional(),
});
export const typeStatusCountSchema = z.object({
  type: deviceTypeSchema,
  label: z.string(),
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  notC: z.number().int(),
});
export const statusCountsSchema = z.object({ contents: z.array(typeStatusCountSchema) });

export const deviceAssignSchema = z.object({
  deviceIds: z.array(idSchema).min(1, 'Choose at least one device').max(500),
  assetId: idSchema.nullable(),
  parentId: idSchema.nullable().default(null),
});

/* ------------------------------------------------------------------ alarm actions (SPEC 2.14, 4) */

export const DEVICE_ALARM_DIALOG = {
  title: 'Manage Mute, Maintenance, and Disable Alarms',
  loading: 'Checking device status...',
  notePrompt: 'Please add a short note about this action:',
  applyToChildren: 'Apply to all child devices',
  toggles: { maintenance: 'Maintenance', muteDevice: 'Mute Device', enableDevice: 'Disable Device' },
} as const;

/** Confirmation question for turning a toggle of the dialog on (`on`) or off. */
export function alarmActionQuestion(key: DeviceToggleKey, on: boolean): string {
  if (key === 'maintenance') return `Are you sure you want to ${on ? 'enable' : 'disable'} Maintenance mode?`;
  if (key === 'muteDevice') return `${on ? 'Mute' : 'Unmute'} this device?`;
  // The Disable Device toggle: on disables the device. SPEC 4 words it 'enable/disable this device?'.
  return `${on ? 'Disable' : 'Enable'} this device?`;
}

/** Success notice after a toggle (SPEC 4); `value` is the stored telemetryValue. */
export function alarmActionSuccess(key: DeviceToggleKey, value: boolean): string {
  const subject = key === 'maintenance' ? 'Maintenance mode' : key === 'muteDevice' ? 'Mute Device mode' : 'Device';
  return `${subject} ${value ? 'enabled' : 'disabled'} successfully!`;
}

export const DEVICE_MESSAGES = {
  alarmActionFailed: 'Error in updating device state!',
  updateFailed: 'Failed to update device! Try again..',
  inventoryFailed: 'Failed to add device to inventory, Try Again',
  created: 'Device created successfully',
  updated: 'Device updated successfully',
  deleted: 'Device deleted successfully',
  alreadyExists: 'A device with this name already exists',
  labelNoSpaces: 'Device label may only contain letters, digits, hyphen and underscore',
  templateCreated: 'Successfully Created',
  templateUpdated: 'Successfully Updated',
  templateDeleted: 'Successfully Deleted',
  templateExists: 'A template with this type, vendor and name already exists',
  mappingExists: 'This mapping already exists',
} as const;

/** SPEC 5: the noSpaces label rule. */
export const NO_SPACES_LABEL = /^[A-Za-z0-9_-]+$/;

export const alarmActionSchema = z.object({
  telemetryKey: z.enum(DEVICE_TOGGLE_KEYS, { message: 'telemetryKey must be maintenance, muteDevice or enableDevice' }),
  telemetryValue: z.boolean({ message: 'telemetryValue must be true or false' }),
  updateChildDevice: z.boolean().default(false),
  createTicket: z.boolean().default(false),
  description: z.string().trim().max(250, 'Please use maximum 250 characters').default(''),
});
export type AlarmActionInput = z.infer<typeof alarmActionSchema>;
export const alarmActionResultSchema = z.object({
  success: z.boolean(),
  updatedDevices: z.number().int(),
  ticketId: z.number().int().nullable(),
});

/** Payload of the `device.alarm-action` domain event; the helpdesk turns createTicket into a ticket. */
export interface DeviceAlarmActionEvent {
  deviceId: number;
  telemetryKey: DeviceToggleKey;
  telemetryValue: boolean;
  createTicket: boolean;
  description: string;
  userId: number;
  updatedDeviceIds: number[];
  assetId: number | null;
  deviceLabel: string;
  ticketId: number | null;
}
export const DEVICE_EVENT_TYPES = { alarmAction: 'device.alarm-action', changed: 'device.changed' } as const;

export const alarmActionLogSchema = z.object({
  id: z.number().int(),
  telemetryKey: z.string(),
  telemetryValue: z.boolean(),
  updateChildDevice: z.boolean(),
  updatedDevices: z.number().int(),
  createTicket: z.boolean(),
  description: z.string(),
  user: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export const alarmActionLogListSchema = z.object({ contents: z.array(alarmActionLogSchema), totalCount: z.number().int() });

/* ------------------------------------------------------------------ templates */

export const templateTelemetrySchema = z.object({
  key: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'Keys start with a letter and use letters, digits and underscore'),
  label: text(80).min(1, 'Label is required'),
  unit: text(20).optional(),
  valueType: z.enum(['number', 'boolean', 'string']).default('number'),
});
export type TemplateTelemetry = z.infer<typeof templateTelemetrySchema>;

export const deviceTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: deviceTypeSchema,
  vendor: z.string(),
  model: z.string().nullable(),
  description: z.string().nullable(),
  telemetry: z.array(templateTelemetrySchema),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  deviceCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeviceTemplate = z.infer<typeof deviceTemplateSchema>;

const templateFields = {
  name: text(120).min(1, 'Name is required'),
  type: deviceTypeSchema,
  vendor: text(80).min(1, 'Vendor is required'),
  model: text(80)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null)),
  description: text(500)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null)),
  telemetry: z
    .array(templateTelemetrySchema)
    .max(100)
    .refine((items) => new Set(items.map((i) => i.key)).size === items.length, 'Telemetry keys must be unique'),
  attributes: z.record(z.string().max(64), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])),
};
export const deviceTemplateInputSchema = z.object({
  ...templateFields,
  telemetry: templateFields.telemetry.default([]),
  attributes: templateFields.attributes.default({}),
});
export const deviceTemplateUpdateSchema = z.object(templateFields).partial();

export const templateListQuerySchema = z.strictObject({
  type: deviceTypeSchema.optional(),
  vendor: text(80).optional(),
  orderBy: orderBy(['updatedAt', 'createdAt', 'vendor', 'type', 'name'] as const).default('-updatedAt'),
  searchText: searchText.optional(),
  page: pageParam,
  limit: limitParam(500, 20),
});
export const deviceTemplateListSchema = z.object({ contents: z.array(deviceTemplateSchema), totalCount: z.number().int() });

/** Values a type dashboard shows when a device has no template: the keys, never numbers. */
export const DEFAULT_TELEMETRY: Partial<Record<DeviceType, TemplateTelemetry[]>> = {
  GENERATOR: [
    { key: 'running', label: 'Running', valueType: 'boolean' },
    { key: 'fuelLevel', label: 'Fuel level', unit: '%', valueType: 'number' },
    { key: 'batteryVoltage', label: 'Battery voltage', unit: 'V', valueType: 'number' },
    { key: 'outputPower', label: 'Output power', unit: 'kW', valueType: 'number' },
    { key: 'runHours', label: 'Run hours', unit: 'h', valueType: 'number' },
    { key: 'coolantTemp', label: 'Coolant temperature', unit: '°C', valueType: 'number' },
  ],
  UPS: [
    { key: 'inputVoltage', label: 'Input voltage', unit: 'V', valueType: 'number' },
    { key: 'outputVoltage', label: 'Output voltage', unit: 'V', valueType: 'number' },
    { key: 'batteryCharge', label: 'Battery charge', unit: '%', valueType: 'number' },
    { key: 'load', label: 'Load', unit: '%', valueType: 'number' },
    { key: 'onBattery', label: 'On battery', valueType: 'boolean' },
    { key: 'runtimeMinutes', label: 'Runtime left', unit: 'min', valueType: 'number' },
  ],
  RECTIFIER: [
    { key: 'dcVoltage', label: 'DC voltage', unit: 'V', valueType: 'number' },
    { key: 'dcCurrent', label: 'DC current', unit: 'A', valueType: 'number' },
    { key: 'acInputVoltage', label: 'AC input voltage', unit: 'V', valueType: 'number' },
    { key: 'modulesOk', label: 'Modules OK', valueType: 'number' },
    { key: 'batteryTemp', label: 'Battery temperature', unit: '°C', valueType: 'number' },
  ],
  ALARMPANEL: [
    { key: 'armed', label: 'Armed', valueType: 'boolean' },
    { key: 'zonesOpen', label: 'Open zones', valueType: 'number' },
    { key: 'tamper', label: 'Tamper', valueType: 'boolean' },
    { key: 'acPower', label: 'AC power', valueType: 'boolean' },
    { key: 'lastEvent', label: 'Last event', valueType: 'string' },
  ],
  METER: [
    { key: 'energyKwh', label: 'Energy', unit: 'kWh', valueType: 'number' },
    { key: 'powerKw', label: 'Power', unit: 'kW', valueType: 'number' },
    { key: 'voltage', label: 'Voltage', unit: 'V', valueType: 'number' },
    { key: 'current', label: 'Current', unit: 'A', valueType: 'number' },
    { key: 'powerFactor', label: 'Power factor', valueType: 'number' },
  ],
  DVR: [
    { key: 'recording', label: 'Recording', valueType: 'boolean' },
    { key: 'channels', label: 'Channels', valueType: 'number' },
    { key: 'hddStatus', label: 'HDD status', valueType: 'string' },
  ],
  CAMERA: [
    { key: 'videoLoss', label: 'Video loss', valueType: 'boolean' },
    { key: 'recording', label: 'Recording', valueType: 'boolean' },
  ],
  HDD: [
    { key: 'capacityGb', label: 'Capacity', unit: 'GB', valueType: 'number' },
    { key: 'usedPercent', label: 'Used', unit: '%', valueType: 'number' },
    { key: 'health', label: 'Health', valueType: 'string' },
  ],
  ROUTER: [
    { key: 'signalDbm', label: 'Signal', unit: 'dBm', valueType: 'number' },
    { key: 'uptimeHours', label: 'Uptime', unit: 'h', valueType: 'number' },
    { key: 'wanIp', label: 'WAN IP', valueType: 'string' },
    // what a router of the /router screen reports (device-ops ROUTER_KEYS)
    { key: 'activeInterface', label: 'Active link', valueType: 'string' },
    { key: 'wanUp', label: 'WAN up', valueType: 'boolean' },
    { key: 'cell1Up', label: 'Cellular SIM 1 up', valueType: 'boolean' },
    { key: 'cell1Signal', label: 'Cellular SIM 1 signal', unit: 'dBm', valueType: 'number' },
    { key: 'cell2Up', label: 'Cellular SIM 2 up', valueType: 'boolean' },
    { key: 'cell2Signal', label: 'Cellular SIM 2 signal', unit: 'dBm', valueType: 'number' },
    { key: 'signalStrength', label: 'Signal strength', unit: 'dBm', valueType: 'number' },
    { key: 'dataUsageMb', label: 'Data usage this month', unit: 'MB', valueType: 'number' },
    { key: 'uptimeSeconds', label: 'Uptime', unit: 's', valueType: 'number' },
    { key: 'rxKbps', label: 'Download', unit: 'kbit/s', valueType: 'number' },
    { key: 'txKbps', label: 'Upload', unit: 'kbit/s', valueType: 'number' },
  ],
  SENSOR: [
    { key: 'temperature', label: 'Temperature', unit: '°C', valueType: 'number' },
    { key: 'humidity', label: 'Humidity', unit: '%', valueType: 'number' },
  ],
  ETH: [{ key: 'inputs', label: 'Digital inputs', valueType: 'string' }],
  ACCESSCONTROL: [
    { key: 'doorOpen', label: 'Door open', valueType: 'boolean' },
    { key: 'lastAccess', label: 'Last access', valueType: 'string' },
  ],
  RELAY: [{ key: 'on', label: 'On', valueType: 'boolean' }],
};

/* ------------------------------------------------------------------ entity mappings */

export const RELATION_TYPES = [
  'CAMERA MAPPING',
  'ASSET MAPPING',
  'DEVICE MAPPING',
  'ASSET DEVICE MAPPING',
  'DEVICE ASSET MAPPING',
] as const;
export const relationTypeSchema = z.enum(RELATION_TYPES, { message: `relationType must be one of ${RELATION_TYPES.join(', ')}` });
export type RelationType = (typeof RELATION_TYPES)[number];
export const ENTITY_KINDS = ['ASSET', 'DEVICE'] as const;
export const entityKindSchema = z.enum(ENTITY_KINDS, { message: 'Use ASSET or DEVICE' });
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** The entity kinds each relation joins (CAMERA MAPPING ends at a camera device). */
export const RELATION_ENDS: Record<RelationType, { from: readonly EntityKind[]; to: EntityKind; toDeviceType?: DeviceType }> = {
  'CAMERA MAPPING': { from: ['ASSET', 'DEVICE'], to: 'DEVICE', toDeviceType: 'CAMERA' },
  'ASSET MAPPING': { from: ['ASSET'], to: 'ASSET' },
  'DEVICE MAPPING': { from: ['DEVICE'], to: 'DEVICE' },
  'ASSET DEVICE MAPPING': { from: ['ASSET'], to: 'DEVICE' },
  'DEVICE ASSET MAPPING': { from: ['DEVICE'], to: 'ASSET' },
};

export const entityRefSchema = z.object({ id: z.number().int(), name: z.string(), label: z.string(), type: z.string().nullable() });
export const entityMappingSchema = z.object({
  id: z.number().int(),
  relationType: relationTypeSchema,
  fromType: entityKindSchema,
  fromEntity: entityRefSchema,
  toType: entityKindSchema,
  toEntity: entityRefSchema,
  createdAt: z.string(),
});
export type EntityMapping = z.infer<typeof entityMappingSchema>;
export const entityMappingInputSchema = z.object({
  relationType: relationTypeSchema,
  fromType: entityKindSchema,
  fromEntity: idSchema,
  toType: entityKindSchema,
  toEntity: idSchema,
});
export const entityMappingQuerySchema = z.strictObject({
  fromType: entityKindSchema.optional(),
  fromEntity: idCoerced.optional(),
  toType: entityKindSchema.optional(),
  toEntity: idCoerced.optional(),
  relationType: relationTypeSchema.optional(),
  page: pageParam,
  limit: limitParam(500, 50),
});
export const entityMappingListSchema = z.object({ contents: z.array(entityMappingSchema), totalCount: z.number().int() });

/* ------------------------------------------------------------------ entities query count (ThingsBoard-style) */

const keyName = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'Key names use letters, digits and underscore');

const filterValue = <T extends z.ZodType>(value: T) => z.object({ defaultValue: value });

export const STRING_OPERATIONS = ['EQUAL', 'NOT_EQUAL', 'STARTS_WITH', 'ENDS_WITH', 'CONTAINS', 'NOT_CONTAINS', 'IN', 'NOT_IN'] as const;
export const NUMERIC_OPERATIONS = ['EQUAL', 'NOT_EQUAL', 'GREATER', 'LESS', 'GREATER_OR_EQUAL', 'LESS_OR_EQUAL'] as const;

export type KeyPredicate =
  | { type: 'STRING'; operation: (typeof STRING_OPERATIONS)[number]; value: { defaultValue: string }; ignoreCase?: boolean }
  | { type: 'NUMERIC'; operation: (typeof NUMERIC_OPERATIONS)[number]; value: { defaultValue: number } }
  | { type: 'BOOLEAN'; operation: 'EQUAL' | 'NOT_EQUAL'; value: { defaultValue: boolean } }
  | { type: 'COMPLEX'; operation: 'AND' | 'OR'; predicates: KeyPredicate[] };

export const keyPredicateSchema: z.ZodType<KeyPredicate> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('STRING'),
      operation: z.enum(STRING_OPERATIONS),
      value: filterValue(z.string().max(500)),
      ignoreCase: z.boolean().optional(),
    }),
    z.object({ type: z.literal('NUMERIC'), operation: z.enum(NUMERIC_OPERATIONS), value: filterValue(z.number()) }),
    z.object({ type: z.literal('BOOLEAN'), operation: z.enum(['EQUAL', 'NOT_EQUAL']), value: filterValue(z.boolean()) }),
    z.object({ type: z.literal('COMPLEX'), operation: z.enum(['AND', 'OR']), predicates: z.array(keyPredicateSchema).min(1).max(20) }),
  ]),
);
keyPredicateSchema.register(z.globalRegistry, { id: 'KeyPredicate' });

export const KEY_TYPES = ['ENTITY_FIELD', 'ATTRIBUTE', 'SERVER_ATTRIBUTE', 'SHARED_ATTRIBUTE', 'CLIENT_ATTRIBUTE', 'TIME_SERIES'] as const;
export const keyFilterSchema = z.object({
  key: z.object({ type: z.enum(KEY_TYPES), key: keyName }),
  valueType: z.enum(['STRING', 'NUMERIC', 'BOOLEAN', 'DATE_TIME']).optional(),
  predicate: keyPredicateSchema,
});
export type KeyFilter = z.infer<typeof keyFilterSchema>;

export const entityFilterSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('deviceType'),
    deviceTypes: z.array(deviceTypeSchema).max(20).optional(),
    deviceType: deviceTypeSchema.optional(),
    deviceNameFilter: z.string().max(200).optional(),
  }),
  z.object({
    type: z.literal('assetType'),
    assetTypes: z.array(z.string().max(40)).max(20).optional(),
    assetNameFilter: z.string().max(200).optional(),
  }),
  z.object({ type: z.literal('entityList'), entityType: entityKindSchema, entityList: z.array(idSchema).max(500) }),
  z.object({ type: z.literal('singleEntity'), singleEntity: z.object({ entityType: entityKindSchema, id: idSchema }) }),
  z.object({
    type: z.literal('relationsQuery'),
    rootEntity: z.object({ entityType: entityKindSchema, id: idSchema }),
    direction: z.enum(['FROM', 'TO']).default('FROM'),
    relationType: relationTypeSchema.optional(),
  }),
]);

export const entitiesQueryCountSchema = z.object({
  query: z.object({
    entityFilter: entityFilterSchema,
    keyFilters: z.array(keyFilterSchema).max(20).default([]),
  }),
});
export type EntitiesQueryCount = z.infer<typeof entitiesQueryCountSchema>;
export const countResultSchema = z.object({ count: z.number().int() });

/* ------------------------------------------------------------------ device-type dashboards (SPEC 2.4) */

/** The device-tree screens and the device type each one shows. */
export const TYPE_DASHBOARDS = {
  genset: { type: 'GENERATOR', title: 'Genset Dashboard', path: '/genset/dashboard' },
  alarmPanel: { type: 'ALARMPANEL', title: 'Alarm Panel Dashboard', path: '/alarm-panel/dashboard' },
  rectifier: { type: 'RECTIFIER', title: 'Rectifier Dashboard', path: '/rectifier/dashboard' },
  ups: { type: 'UPS', title: 'UPS Dashboard', path: '/ups/dashboard' },
  meter: { type: 'METER', title: 'Meter Dashboard', path: '/meter-device/dashboard' },
  cctv: { type: 'DVR', title: 'CCTV Dashboard', path: '/cctv/dashboard' },
} as const satisfies Record<string, { type: DeviceType; title: string; path: string }>;

/* ------------------------------------------------------------------ tree navigation entries (SPEC 2.13) */

/**
 * The tree's right-click navigation entries (SPEC 2.13: configurable by node and device type), a customer setting.
 * `to` is an address in the app with `{assetId}` and `{deviceId}` filled in from the node clicked; an entry without
 * `deviceType` is shown for every device (device entries) or every site (site entries).
 */
export const TREE_NAVIGATION_NODE_TYPES = ['asset', 'device'] as const;
export type TreeNavigationNodeType = (typeof TREE_NAVIGATION_NODE_TYPES)[number];
export const TREE_NAVIGATION_PLACEHOLDERS = ['{assetId}', '{deviceId}'] as const;
export const TREE_NAVIGATION_MAX_ENTRIES = 50;

export interface TreeNavigationEntry {
  nodeType: TreeNavigationNodeType;
  deviceType?: DeviceType;
  label: string;
  to: string;
}

/** The entries a customer starts with. */
export const DEFAULT_TREE_NAVIGATION: readonly TreeNavigationEntry[] = [
  { nodeType: 'device', deviceType: 'GENERATOR', label: 'Genset Dashboard', to: '/genset/view/{assetId}/{deviceId}' },
  { nodeType: 'device', deviceType: 'UPS', label: 'UPS Dashboard', to: '/ups/view/{assetId}/{deviceId}' },
  { nodeType: 'device', deviceType: 'RECTIFIER', label: 'Rectifier Dashboard', to: '/rectifier/view/{assetId}/{deviceId}' },
  { nodeType: 'device', deviceType: 'ALARMPANEL', label: 'Alarm Panel Dashboard', to: '/alarm-panel/view/{deviceId}' },
  { nodeType: 'device', deviceType: 'DVR', label: 'CCTV Dashboard', to: '/cctv/dashboard?assetId={assetId}' },
  { nodeType: 'device', deviceType: 'CAMERA', label: 'Camera View', to: '/cctv/view/{deviceId}' },
  { nodeType: 'device', deviceType: 'ROUTER', label: 'Power Dashboard', to: '/site-summary/power-dashboard/{assetId}' },
];

const PLACEHOLDER = /\{[^}]*\}/g;

export const treeNavigationEntrySchema = z
  .strictObject({
    nodeType: z.enum(TREE_NAVIGATION_NODE_TYPES, { message: `nodeType must be one of ${TREE_NAVIGATION_NODE_TYPES.join(', ')}` }),
    deviceType: deviceTypeSchema.optional(),
    label: z.string().trim().min(1, 'Label is required').max(60, 'Please use maximum 60 characters'),
    to: z
      .string()
      .trim()
      .max(300, 'Please use maximum 300 characters')
      .regex(/^\/(?![/\\])[^\s]*$/, 'Address must be a path in the app, starting with a single /')
      .refine(
        (to) => (to.match(PLACEHOLDER) ?? []).every((p) => (TREE_NAVIGATION_PLACEHOLDERS as readonly string[]).includes(p)),
        `Address may only use ${TREE_NAVIGATION_PLACEHOLDERS.join(' and ')}`,
      ),
  })
  .refine((e) => e.nodeType === 'device' || e.deviceType === undefined, {
    message: 'A site entry has no device type',
    path: ['deviceType'],
  })
  .refine((e) => e.nodeType === 'device' || !e.to.includes('{deviceId}'), {
    message: 'A site entry cannot use {deviceId}',
    path: ['to'],
  });

export const treeNavigationSchema = z
  .array(treeNavigationEntrySchema)
  .max(TREE_NAVIGATION_MAX_ENTRIES, `At most ${TREE_NAVIGATION_MAX_ENTRIES} entries`);

/** The entries of a node, with their addresses filled in. */
export function treeNavigationFor(
  entries: readonly TreeNavigationEntry[],
  node: { nodeType: string; deviceType?: string; assetId?: number | null; deviceId?: number },
): { label: string; to: string }[] {
  return entries
    .filter((e) => e.nodeType === node.nodeType && (!e.deviceType || e.deviceType === node.deviceType))
    .map((e) => ({
      label: e.label,
      to: e.to
        .replaceAll('{assetId}', encodeURIComponent(String(node.assetId ?? 0)))
        .replaceAll('{deviceId}', encodeURIComponent(String(node.deviceId ?? 0))),
    }));
}
