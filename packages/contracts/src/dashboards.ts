import { z } from 'zod';
import { ALARM_SEVERITIES, ALARM_STATES } from './alarms.ts';
import { INT4_MAX, idCoerced, idSchema } from './common.ts';
import { DEVICE_TYPES } from './devices.ts';
import { TICKET_STATUSES } from './helpdesk/tickets.ts';
import type { PermissionCodename } from './permissions.ts';
import { TELEMETRY_AGGREGATIONS, telemetryKeySchema } from './telemetry.ts';
import { TICKET_TYPES } from './ticket-types.ts';

/**
 * Dashboards (SPEC 2.2, 3, 7, 9): folders, dashboards on a two-breakpoint grid, reusable components, versions,
 * the server-side widget data query, and analytics dashboards shared by signed link with row-level conditions.
 */

export const DASHBOARD_PERMISSIONS = {
  view: 'view_dashboard',
  add: 'add_dashboard',
  change: 'change_dashboard',
  delete: 'delete_dashboard',
  /** Create, list and revoke shared analytics links. */
  share: 'share_dashboard',
} as const satisfies Record<string, PermissionCodename>;

/** Limits; string limits match the database columns. */
export const DASHBOARD_LIMITS = {
  name: 120,
  label: 120,
  widgetTitle: 120,
  unit: 20,
  /** `layouts.src`: an external page shown in a frame. */
  src: 2000,
  widgets: 40,
  /** Groups a dashboard can be meant for. */
  audienceGroups: 20,
  /** SPEC 9: dashboard folders fetch limit. */
  folders: 100,
  folderDepth: 6,
  seriesDevices: 10,
  seriesKeys: 10,
  series: 20,
  /** Most points of one series in a widget answer. */
  pointsPerSeries: 1000,
  /** Most rows of a table widget answer (alarm list, ticket list, site map). */
  rowsPerTable: 100,
  filterValues: 50,
  rlsConditions: 10,
  rlsValues: 100,
  rlsValue: 120,
  /** Longest validity of a shared link, in days. */
  linkDays: 365,
  versionsPage: 100,
  /** Longest time range of a widget query. */
  rangeMs: 400 * 86_400_000,
} as const;

/** SPEC 9: some dashboard menu catalogue items carry a refresh interval of 50. */
export const DASHBOARD_MENU_REFRESH_INTERVAL = 50;
/** SPEC 6: roles whose first role skips fetching the user's own dashboard list. */
export const DASHBOARD_LIST_SKIP_ROLES = ['sysadmin', 'localadmin', 'customeradmin'] as const;
export const shouldFetchUserDashboards = (roles: readonly string[]) =>
  roles.length === 0 || !(DASHBOARD_LIST_SKIP_ROLES as readonly string[]).includes(roles[0] ?? '');

/** Grid columns per breakpoint (react-grid-layout `cols`). */
export const GRID_COLUMNS = { lg: 12, sm: 4 } as const;
export const GRID_MAX_Y = 1000;
export const GRID_MAX_H = 48;

export const DASHBOARD_MESSAGES = {
  created: 'Successfully Created',
  updated: 'Successfully Updated',
  deleted: 'Successfully Deleted',
  restored: 'Successfully Restored',
  nameRequired: 'Name is required',
  notFound: 'Dashboard not found',
  folderNotFound: 'Folder not found',
  componentNotFound: 'Component not found',
  versionNotFound: 'Version not found',
  linkNotFound: 'Link not found',
  folderCycle: 'A folder cannot be moved into itself or one of its sub-folders',
  folderTooDeep: `Folders can be nested at most ${DASHBOARD_LIMITS.folderDepth} levels deep`,
  folderNotEmpty: 'Move or delete the dashboards and sub-folders of this folder first',
  folderLimit: `A tenant can have at most ${DASHBOARD_LIMITS.folders} folders`,
  componentInUse: 'This component is placed on a dashboard; remove it there first',
  componentNested: 'A component cannot contain another component',
  widgetUnknown: 'Widget not found on this dashboard',
  widgetIdsUnique: 'Widget ids must be unique',
  layoutUnknownWidget: 'A layout item refers to a widget that does not exist',
  layoutOutside: 'A layout item lies outside the grid',
  srcInvalid: 'Enter an https:// address',
  deviceUnknown: 'Device not found',
  cameraUnknown: 'Camera not found',
  /** A widget bound to devices or a camera the viewer does not see (at sites outside theirs). */
  outsideYourSites: 'This widget shows a device at a site you cannot see.',
  cameraOutsideYourSites: 'This widget shows a camera at a site you cannot see.',
  /** A widget of data the viewer's role does not cover (tickets, cameras, form responses). */
  notForYou: 'This widget shows data your role does not include.',
  formUnknown: 'Form not found',
  siteUnknown: 'Site not found',
  groupUnknown: 'Choose groups of this account',
  notAnalytics: 'Only analytics dashboards can be shared by link',
  rlsUnknownColumn: 'This condition is not in the catalogue',
  rlsWidens: 'A condition names rows outside your own sites',
  expiryPast: 'Choose an expiry in the future',
  expiryTooFar: `A link can be valid for at most ${DASHBOARD_LIMITS.linkDays} days`,
  linkRefused: 'This link is not valid',
  linkExpired: 'This link has expired',
  linkRevoked: 'This link has been revoked',
  rangeInvalid: 'Please choose an end date greater than the start date',
  rangeTooLong: 'Choose a shorter time range',
} as const;

/** Refusal codes of a shared link (the `code` of the error body); the text is DASHBOARD_MESSAGES.link*. */
export const LINK_REFUSALS = ['malformed', 'tampered', 'expired', 'revoked', 'unknown_key', 'wrong_tenant', 'scope'] as const;
export type LinkRefusal = (typeof LINK_REFUSALS)[number];

const max = (n: number) => `Please use maximum ${n} characters`;
const text = (n: number) => z.string().trim().max(n, max(n));
const name = text(DASHBOARD_LIMITS.name).min(1, DASHBOARD_MESSAGES.nameRequired);
const epochMs = z.number().int().min(0).max(8_640_000_000_000);

/* ------------------------------------------------------------------ time ranges */

/** A widget's own time range: the last N milliseconds, or fixed bounds. */
export const widgetRangeSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('relative'),
    lastMs: z.number().int().min(60_000).max(DASHBOARD_LIMITS.rangeMs, DASHBOARD_MESSAGES.rangeTooLong),
  }),
  z
    .strictObject({ kind: z.literal('absolute'), startTs: epochMs, endTs: epochMs })
    .refine((r) => r.endTs > r.startTs, { message: DASHBOARD_MESSAGES.rangeInvalid, path: ['endTs'] })
    .refine((r) => r.endTs - r.startTs <= DASHBOARD_LIMITS.rangeMs, { message: DASHBOARD_MESSAGES.rangeTooLong, path: ['endTs'] }),
]);
export type WidgetRange = z.infer<typeof widgetRangeSchema>;

/** A range chosen on a chart, applied to every widget of the view (cameras to playback, tickets filtered). */
export const rangeOverrideSchema = z
  .strictObject({ startTs: epochMs, endTs: epochMs })
  .refine((r) => r.endTs > r.startTs, { message: DASHBOARD_MESSAGES.rangeInvalid, path: ['endTs'] })
  .refine((r) => r.endTs - r.startTs <= DASHBOARD_LIMITS.rangeMs, { message: DASHBOARD_MESSAGES.rangeTooLong, path: ['endTs'] });
export type RangeOverride = z.infer<typeof rangeOverrideSchema>;

/* ------------------------------------------------------------------ widgets */

export const WIDGET_KINDS = [
  'timeseries',
  'latest',
  'siteSummary',
  'alarmList',
  'ticketCounters',
  'ticketList',
  'siteMap',
  'camera',
  'formResponses',
  'component',
] as const;
export type WidgetKind = (typeof WIDGET_KINDS)[number];
export const WIDGET_KIND_LABELS: Record<WidgetKind, string> = {
  timeseries: 'Time series',
  latest: 'Latest value',
  siteSummary: 'Site summary',
  alarmList: 'Alarm list',
  ticketCounters: 'Ticket counters',
  ticketList: 'Ticket list',
  siteMap: 'Map of sites',
  camera: 'Camera',
  formResponses: 'Form responses',
  component: 'Component',
};

/** Widget id: the `i` of its layout items. */
export const widgetIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'Widget id: letters, digits, - and _, at most 40');

const siteIds = z.array(idSchema).max(DASHBOARD_LIMITS.filterValues).default([]);
const base = {
  id: widgetIdSchema,
  title: text(DASHBOARD_LIMITS.widgetTitle).default(''),
};

export const timeseriesWidgetSchema = z
  .strictObject({
    ...base,
    kind: z.literal('timeseries'),
    deviceIds: z.array(idSchema).min(1, 'Choose a device').max(DASHBOARD_LIMITS.seriesDevices),
    keys: z.array(telemetryKeySchema).min(1, 'Choose a key').max(DASHBOARD_LIMITS.seriesKeys),
    /** `none` = raw points; otherwise buckets of `interval` seconds (chosen from the range when null). */
    agg: z.enum(TELEMETRY_AGGREGATIONS).default('none'),
    interval: z
      .number()
      .int()
      .min(1)
      .max(31 * 86400)
      .nullable()
      .default(null),
    range: widgetRangeSchema.default({ kind: 'relative', lastMs: 86_400_000 }),
    chart: z.enum(['line', 'bar', 'area']).default('line'),
  })
  .refine((w) => w.deviceIds.length * w.keys.length <= DASHBOARD_LIMITS.series, {
    message: `At most ${DASHBOARD_LIMITS.series} series (devices × keys)`,
    path: ['keys'],
  });

export const latestWidgetSchema = z.strictObject({
  ...base,
  kind: z.literal('latest'),
  deviceId: idSchema,
  /** Not needed for `status`, which shows the device's connection status. */
  key: telemetryKeySchema.nullable().default(null),
  display: z.enum(['value', 'gauge', 'status']).default('value'),
  min: z.number().finite().nullable().default(null),
  max: z.number().finite().nullable().default(null),
  unit: text(DASHBOARD_LIMITS.unit).default(''),
});

export const siteSummaryWidgetSchema = z.strictObject({
  ...base,
  kind: z.literal('siteSummary'),
  deviceTypes: z.array(z.enum(DEVICE_TYPES)).max(DEVICE_TYPES.length).default([]),
  siteIds,
});

export const alarmListWidgetSchema = z.strictObject({
  ...base,
  kind: z.literal('alarmList'),
  severities: z.array(z.enum(ALARM_SEVERITIES)).max(ALARM_SEVERITIES.length).default([]),
  state: z.enum(ALARM_STATES).nullable().default('ACTIVE'),
  siteIds,
  limit: z.number().int().min(1).max(DASHBOARD_LIMITS.rowsPerTable).default(20),
});

export const ticketCountersWidgetSchema = z.strictObject({
  ...base,
  kind: z.literal('ticketCounters'),
  types: z.array(z.enum(TICKET_TYPES)).max(TICKET_TYPES.length).default([]),
  statuses: z.array(z.enum(TICKET_STATUSES)).max(TICKET_STATUSES.length).default(['OPEN', 'INPROGRESS', 'RESOLVED', 'CLOSED']),
  siteIds,
});

export const ticketListWidgetSchema = z.strictObject({
  ...base,
  kind: z.literal('ticketList'),
  types: z.array(z.enum(TICKET_TYPES)).max(TICKET_TYPES.length).default([]),
  statuses: z.array(z.enum(TICKET_STATUSES)).max(TICKET_STATUSES.length).default([]),
  priorities: z.array(text(40).min(1)).max(DASHBOARD_LIMITS.filterValues).default([]),
  siteIds,
  limit: z.number().int().min(1).max(DASHBOARD_LIMITS.rowsPerTable).default(20),
});

export const siteMapWidgetSchema = z.strictObject({ ...base, kind: z.literal('siteMap'), siteIds });

export const cameraWidgetSchema = z.strictObject({ ...base, kind: z.literal('camera'), cameraId: idSchema });

export const formResponsesWidgetSchema = z.strictObject({
  ...base,
  kind: z.literal('formResponses'),
  formId: idSchema,
  days: z.number().int().min(1).max(90).default(30),
});

export const componentWidgetSchema = z.strictObject({ ...base, kind: z.literal('component'), componentId: idSchema });

export const widgetSchema = z.discriminatedUnion('kind', [
  timeseriesWidgetSchema,
  latestWidgetSchema,
  siteSummaryWidgetSchema,
  alarmListWidgetSchema,
  ticketCountersWidgetSchema,
  ticketListWidgetSchema,
  siteMapWidgetSchema,
  cameraWidgetSchema,
  formResponsesWidgetSchema,
  componentWidgetSchema,
]);
export type Widget = z.infer<typeof widgetSchema>;
export type WidgetInput = z.input<typeof widgetSchema>;
/** What a component holds: any widget but another component. */
export const componentBodyWidgetSchema = widgetSchema.refine((w) => w.kind !== 'component', {
  message: DASHBOARD_MESSAGES.componentNested,
  path: ['kind'],
});

/* ------------------------------------------------------------------ layouts */

/** A react-grid-layout item. */
export const layoutItemSchema = z.strictObject({
  i: widgetIdSchema,
  x: z
    .number()
    .int()
    .min(0)
    .max(GRID_COLUMNS.lg - 1),
  y: z.number().int().min(0).max(GRID_MAX_Y),
  w: z.number().int().min(1).max(GRID_COLUMNS.lg),
  h: z.number().int().min(1).max(GRID_MAX_H),
});
export type LayoutItem = z.infer<typeof layoutItemSchema>;

const httpsUrl = z
  .string()
  .trim()
  .max(DASHBOARD_LIMITS.src, max(DASHBOARD_LIMITS.src))
  .refine((v) => {
    try {
      return new URL(v).protocol === 'https:';
    } catch {
      return false;
    }
  }, DASHBOARD_MESSAGES.srcInvalid);

export const layoutsSchema = z
  .strictObject({
    lg: z.array(layoutItemSchema).max(DASHBOARD_LIMITS.widgets).default([]),
    sm: z.array(layoutItemSchema).max(DASHBOARD_LIMITS.widgets).default([]),
    /** An external page shown in a frame instead of the grid. */
    src: httpsUrl.nullable().default(null),
  })
  .refine((l) => l.lg.every((i) => i.x + i.w <= GRID_COLUMNS.lg), { message: DASHBOARD_MESSAGES.layoutOutside, path: ['lg'] })
  .refine((l) => l.sm.every((i) => i.x + i.w <= GRID_COLUMNS.sm), { message: DASHBOARD_MESSAGES.layoutOutside, path: ['sm'] });
export type Layouts = z.infer<typeof layoutsSchema>;

/* ------------------------------------------------------------------ dashboards */

export const DASHBOARD_TYPES = ['DASHBOARD', 'ANALYTICS'] as const;
export type DashboardType = (typeof DASHBOARD_TYPES)[number];

export const dashboardConfigSchema = z.strictObject({
  type: z.enum(DASHBOARD_TYPES).default('DASHBOARD'),
  /** The breadcrumb shows the dashboard name instead of the folder path's last item. */
  titleAsBreadCrumb: z.boolean().default(false),
  settings: z
    .strictObject({
      /** Shown in the navigation of the users it is meant for (`roles`, `groups`): a choice, off until made. */
      showInMenu: z.boolean().default(false),
      /** Shown on the home page of the users it is meant for. */
      showOnHome: z.boolean().default(false),
      /** Roles it is meant for; with `groups` empty too, everyone who may view dashboards. */
      roles: z.array(text(40).min(1)).max(20).default([]),
      /** Groups it is meant for (a user of any of them, or of any of `roles`). */
      groups: z
        .array(idSchema)
        .max(DASHBOARD_LIMITS.audienceGroups, `Choose at most ${DASHBOARD_LIMITS.audienceGroups} groups`)
        .refine((ids) => new Set(ids).size === ids.length, 'Choose each group once')
        .default([]),
      /** SPEC 6: the ticket alias a customer user sees, from dashboard configuration. */
      ticketAlias: text(DASHBOARD_LIMITS.label).nullable().default(null),
      /** Seconds between live refreshes of widgets without push (SPEC 9 default 50). */
      refreshInterval: z.number().int().min(5).max(3600).default(DASHBOARD_MENU_REFRESH_INTERVAL),
    })
    .default({
      showInMenu: false,
      showOnHome: false,
      roles: [],
      groups: [],
      ticketAlias: null,
      refreshInterval: DASHBOARD_MENU_REFRESH_INTERVAL,
    }),
});
export type DashboardConfig = z.infer<typeof dashboardConfigSchema>;

/** Body of create (POST) and full update (PUT); every save stores a version. */
export const dashboardInputSchema = z
  .strictObject({
    name,
    folderId: idSchema.nullable().default(null),
    config: dashboardConfigSchema.default({
      type: 'DASHBOARD',
      titleAsBreadCrumb: false,
      settings: {
        showInMenu: false,
        showOnHome: false,
        roles: [],
        groups: [],
        ticketAlias: null,
        refreshInterval: DASHBOARD_MENU_REFRESH_INTERVAL,
      },
    }),
    layouts: layoutsSchema.default({ lg: [], sm: [], src: null }),
    widgets: z.array(widgetSchema).max(DASHBOARD_LIMITS.widgets).default([]),
    /** Optional note stored with the version this save creates. */
    note: text(DASHBOARD_LIMITS.label).default(''),
  })
  .refine((d) => new Set(d.widgets.map((w) => w.id)).size === d.widgets.length, {
    message: DASHBOARD_MESSAGES.widgetIdsUnique,
    path: ['widgets'],
  })
  .refine(
    (d) => {
      const ids = new Set(d.widgets.map((w) => w.id));
      return [...d.layouts.lg, ...d.layouts.sm].every((i) => ids.has(i.i));
    },
    { message: DASHBOARD_MESSAGES.layoutUnknownWidget, path: ['layouts'] },
  );
export type DashboardInput = z.input<typeof dashboardInputSchema>;

export const dashboardSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  index: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Folder id (SPEC 3 `folder`), null at the top level. */
  folder: z.number().int().nullable(),
  /** Same as `folder` (SPEC 3 `parentId`). */
  parentId: z.number().int().nullable(),
  isFolder: z.literal(false),
  config: dashboardConfigSchema,
  /** `src` only; the grid is in the full dashboard. */
  layouts: z.object({ src: z.string().nullable() }),
  version: z.number().int(),
  createdBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;

export const dashboardDetailSchema = dashboardSummarySchema.extend({
  layouts: z.object({ lg: z.array(layoutItemSchema), sm: z.array(layoutItemSchema), src: z.string().nullable() }),
  widgets: z.array(widgetSchema),
  /** Components referenced by `component` widgets, so a view renders without another round trip. */
  components: z.array(z.lazy(() => componentSchema)),
  /** Folder path from the top, for the breadcrumb (SPEC 2.5). */
  path: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type DashboardDetail = z.infer<typeof dashboardDetailSchema>;

export const dashboardListQuerySchema = z.strictObject({
  search: z.string().trim().min(1).max(100, max(100)).optional(),
  /** A folder id, or `root` for the top level; omitted = all. */
  folderId: z.union([z.literal('root'), z.coerce.number().int().min(1).max(INT4_MAX)]).optional(),
  type: z.enum(DASHBOARD_TYPES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type DashboardListQuery = z.infer<typeof dashboardListQuerySchema>;
export const dashboardListSchema = z.object({ contents: z.array(dashboardSummarySchema), totalCount: z.number().int() });
export type DashboardList = z.infer<typeof dashboardListSchema>;

/** `/iotapp/user-dashboards/`: dashboards meant for the current user (menu and home page). */
export const userDashboardsSchema = z.object({ contents: z.array(dashboardSummarySchema), totalCount: z.number().int() });
export type UserDashboards = z.infer<typeof userDashboardsSchema>;

/** What a dashboard's editor may choose its audience from (`settings.groups`): the account's groups by name. */
export const dashboardAudienceSchema = z.object({ groups: z.array(z.object({ id: z.number().int(), name: z.string() })) });
export type DashboardAudience = z.infer<typeof dashboardAudienceSchema>;

/* ------------------------------------------------------------------ folders */

export const folderInputSchema = z.strictObject({
  name,
  parentId: idSchema.nullable().default(null),
  config: z.strictObject({ titleAsBreadCrumb: z.boolean().default(false) }).default({ titleAsBreadCrumb: false }),
});
export type FolderInput = z.input<typeof folderInputSchema>;

export const dashboardFolderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  index: z.number().int(),
  parentId: z.number().int().nullable(),
  isFolder: z.literal(true),
  config: z.object({ titleAsBreadCrumb: z.boolean() }),
  createdAt: z.string(),
  /** Child folder ids in `index` order (SPEC 3 `children`); build the tree from these or from parentId. */
  children: z.array(z.number().int()),
  dashboardCount: z.number().int(),
});
export type DashboardFolder = z.infer<typeof dashboardFolderSchema>;

/** `/iotapp/dashboards/folders/?limit=100` (SPEC 7, 9). */
export const folderListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(DASHBOARD_LIMITS.folders).default(DASHBOARD_LIMITS.folders),
  parentId: z.union([z.literal('root'), z.coerce.number().int().min(1).max(INT4_MAX)]).optional(),
});
export const folderListSchema = z.object({ contents: z.array(dashboardFolderSchema), totalCount: z.number().int() });
export type FolderList = z.infer<typeof folderListSchema>;

/** One folder with its breadcrumb path and direct contents (`/folder/{folderId}`). */
export const folderDetailSchema = dashboardFolderSchema.extend({
  path: z.array(z.object({ id: z.number().int(), name: z.string() })),
  folders: z.array(dashboardFolderSchema),
  dashboards: z.array(dashboardSummarySchema),
});
export type FolderDetail = z.infer<typeof folderDetailSchema>;

/** Move a dashboard or folder to another parent (null = top level) at a position (0-based; end when omitted). */
export const moveInputSchema = z.strictObject({
  parentId: idSchema.nullable(),
  index: z.number().int().min(0).max(10_000).optional(),
});
export type MoveInput = z.input<typeof moveInputSchema>;

/** Reorder the direct children of one parent: every id of that parent, in the new order. */
export const reorderInputSchema = z.strictObject({
  parentId: idSchema.nullable(),
  folderIds: z.array(idSchema).max(DASHBOARD_LIMITS.folders).default([]),
  dashboardIds: z.array(idSchema).max(500).default([]),
});
export type ReorderInput = z.input<typeof reorderInputSchema>;

/* ------------------------------------------------------------------ components */

export const componentInputSchema = z.strictObject({
  name,
  widget: componentBodyWidgetSchema,
  /** Default size when placed. */
  size: z
    .strictObject({ w: z.number().int().min(1).max(GRID_COLUMNS.lg), h: z.number().int().min(1).max(GRID_MAX_H) })
    .default({ w: 4, h: 4 }),
});
export type ComponentInput = z.input<typeof componentInputSchema>;

export const componentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  widget: widgetSchema,
  size: z.object({ w: z.number().int(), h: z.number().int() }),
  /** Dashboards placing it. */
  usedBy: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DashboardComponent = z.infer<typeof componentSchema>;
export const componentListQuerySchema = z.strictObject({
  search: z.string().trim().min(1).max(100, max(100)).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const componentListSchema = z.object({ contents: z.array(componentSchema), totalCount: z.number().int() });
export type ComponentList = z.infer<typeof componentListSchema>;

/* ------------------------------------------------------------------ versions */

export const dashboardVersionSchema = z.object({
  id: z.number().int(),
  dashboardId: z.number().int(),
  version: z.number().int(),
  name: z.string(),
  note: z.string(),
  /** The version this one was restored from, if any. */
  restoredFrom: z.number().int().nullable(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type DashboardVersion = z.infer<typeof dashboardVersionSchema>;
export const versionListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(DASHBOARD_LIMITS.versionsPage).default(20),
});
export const versionListSchema = z.object({ contents: z.array(dashboardVersionSchema), totalCount: z.number().int() });
export type VersionList = z.infer<typeof versionListSchema>;
/** A version with its stored definition (preview before restore). */
export const versionDetailSchema = dashboardVersionSchema.extend({
  config: dashboardConfigSchema,
  layouts: z.object({ lg: z.array(layoutItemSchema), sm: z.array(layoutItemSchema), src: z.string().nullable() }),
  widgets: z.array(widgetSchema),
});
export type VersionDetail = z.infer<typeof versionDetailSchema>;

/* ------------------------------------------------------------------ row-level conditions */

export const RLS_OPERATORS = ['eq', 'in', 'not_in'] as const;
export type RlsOperator = (typeof RLS_OPERATORS)[number];

/**
 * The catalogue of row-level conditions: dataset → column → value type. Conditions are checked against it and
 * applied by the server as typed filters, never as SQL text.
 */
export const RLS_CATALOGUE = {
  sites: { id: 'id', customerId: 'id', name: 'string' },
  devices: { id: 'id', type: 'deviceType' },
  tickets: { status: 'ticketStatus', type: 'ticketType', priority: 'string' },
  alarms: { severity: 'alarmSeverity' },
} as const;
export type RlsDataset = keyof typeof RLS_CATALOGUE;
export const RLS_DATASETS = Object.keys(RLS_CATALOGUE) as RlsDataset[];
export const RLS_COLUMN_LABELS: Record<string, string> = {
  'sites.id': 'Site',
  'sites.customerId': 'Customer',
  'sites.name': 'Site name',
  'devices.id': 'Device',
  'devices.type': 'Device type',
  'tickets.status': 'Ticket status',
  'tickets.type': 'Ticket type',
  'tickets.priority': 'Ticket priority',
  'alarms.severity': 'Alarm severity',
};

const rlsValue = z.union([z.number().int().min(1).max(INT4_MAX), z.string().trim().min(1).max(DASHBOARD_LIMITS.rlsValue)]);

export const rlsConditionSchema = z
  .strictObject({
    dataset: z.enum(RLS_DATASETS as [RlsDataset, ...RlsDataset[]]),
    column: z.string().min(1).max(40),
    operator: z.enum(RLS_OPERATORS),
    values: z.array(rlsValue).min(1, 'Add at least one value').max(DASHBOARD_LIMITS.rlsValues),
  })
  .superRefine((c, ctx) => {
    const columns = RLS_CATALOGUE[c.dataset] as Record<string, string>;
    const type = Object.hasOwn(columns, c.column) ? columns[c.column] : undefined;
    if (!type) {
      ctx.addIssue({ code: 'custom', message: DASHBOARD_MESSAGES.rlsUnknownColumn, path: ['column'] });
      return;
    }
    if (c.operator === 'eq' && c.values.length !== 1) ctx.addIssue({ code: 'custom', message: 'eq takes one value', path: ['values'] });
    const allowed: Record<string, readonly string[]> = {
      deviceType: DEVICE_TYPES,
      ticketStatus: TICKET_STATUSES,
      ticketType: TICKET_TYPES,
      alarmSeverity: ALARM_SEVERITIES,
    };
    for (const v of c.values) {
      const ok =
        type === 'id'
          ? typeof v === 'number'
          : type === 'string'
            ? typeof v === 'string'
            : typeof v === 'string' && (allowed[type] ?? []).includes(v);
      if (!ok) {
        ctx.addIssue({
          code: 'custom',
          message: `Value ${String(v).slice(0, 40)} is not valid for ${c.dataset}.${c.column}`,
          path: ['values'],
        });
        return;
      }
    }
  });
export type RlsCondition = z.infer<typeof rlsConditionSchema>;
export const rlsConditionsSchema = z.array(rlsConditionSchema).max(DASHBOARD_LIMITS.rlsConditions).default([]);

/* ------------------------------------------------------------------ analytics links */

export const analyticsLinkInputSchema = z.strictObject({
  dashboardId: idSchema,
  label: text(DASHBOARD_LIMITS.label).min(1, 'Label is required'),
  /** ISO date-time; within DASHBOARD_LIMITS.linkDays. */
  expiresAt: z.iso.datetime({ offset: true, message: 'Enter a date and time' }),
  rls_conditions: rlsConditionsSchema,
});
export type AnalyticsLinkInput = z.input<typeof analyticsLinkInputSchema>;

export const analyticsLinkSchema = z.object({
  /** The revocable link id (uuid) carried in the signed payload. */
  id: z.string(),
  dashboardId: z.number().int(),
  dashboardName: z.string(),
  label: z.string(),
  rls_conditions: z.array(rlsConditionSchema),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  viewCount: z.number().int(),
  lastViewedAt: z.string().nullable(),
  /** Key id that signed it. */
  kid: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** `expired`, `revoked` or `active`. */
  state: z.enum(['active', 'expired', 'revoked']),
  /** The web path `/analytics-dashboard/{dashboardId}/{random}{payload}{random}`; freshly signed, null when inactive. */
  path: z.string().nullable(),
});
export type AnalyticsLink = z.infer<typeof analyticsLinkSchema>;
export const analyticsLinkListQuerySchema = z.strictObject({
  dashboardId: z.coerce.number().int().min(1).max(INT4_MAX).optional(),
  state: z.enum(['active', 'expired', 'revoked']).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const analyticsLinkListSchema = z.object({ contents: z.array(analyticsLinkSchema), totalCount: z.number().int() });
export type AnalyticsLinkList = z.infer<typeof analyticsLinkListSchema>;

/** `/analytics-report` (SPEC 3 Analytics dashboard entry): dashboardId, label, rls_conditions. */
export const analyticsReportSchema = z.object({
  contents: z.array(
    z.object({
      dashboardId: z.number().int(),
      dashboardName: z.string(),
      label: z.string(),
      rls_conditions: z.array(rlsConditionSchema),
      linkId: z.string(),
      expiresAt: z.string(),
      viewCount: z.number().int(),
      path: z.string().nullable(),
    }),
  ),
  totalCount: z.number().int(),
});
export type AnalyticsReport = z.infer<typeof analyticsReportSchema>;

/** Longest token the web may send: random + JWE + random. */
export const LINK_TOKEN_MAX = 4000;
/** Length of each random part around the payload. */
export const LINK_PAD_LENGTH = 12;
export const linkTokenSchema = z
  .string()
  .min(LINK_PAD_LENGTH * 2 + 10)
  .max(LINK_TOKEN_MAX)
  .regex(/^[A-Za-z0-9_.-]+$/);

/** Public (no session): open a shared link. The web takes both from `/analytics-dashboard/{dashboardId}/{token}`. */
export const linkOpenInputSchema = z.strictObject({ dashboardId: idSchema, token: linkTokenSchema });
export const linkViewSchema = z.object({
  dashboard: z.object({
    id: z.number().int(),
    name: z.string(),
    config: dashboardConfigSchema,
    layouts: z.object({ lg: z.array(layoutItemSchema), sm: z.array(layoutItemSchema), src: z.string().nullable() }),
    widgets: z.array(widgetSchema),
    components: z.array(componentSchema),
  }),
  label: z.string(),
  expiresAt: z.string(),
  rls_conditions: z.array(rlsConditionSchema),
});
export type LinkView = z.infer<typeof linkViewSchema>;
/**
 * A camera tile's live video on a shared link: the playlist and its media files under the link's dashboard and
 * widget, the token in the `x-link-token` header of every request (the credential, verified each time; never in a
 * URL or a log; no session, no stream URL).
 */
export const LINK_TOKEN_HEADER = 'x-link-token';
export const linkCameraParamsSchema = z.strictObject({ dashboardId: idCoerced, widgetId: widgetIdSchema });
export const linkCameraMediaParamsSchema = linkCameraParamsSchema.extend({
  run: z.string().regex(/^[a-z0-9]{6,32}$/, 'invalid run'),
  file: z.string().regex(/^(init\.mp4|seg-\d{1,9}\.m4s)$/, 'invalid file'),
});
export const sharedCameraPlaylistPath = (dashboardId: number, widgetId: string) =>
  `/iotapp/analytics-dashboard/${dashboardId}/cameras/${widgetId}/live.m3u8`;

/** Public: run one widget of a shared dashboard (by id, never a definition from the client). */
export const linkWidgetDataInputSchema = z.strictObject({
  dashboardId: idSchema,
  token: linkTokenSchema,
  widgetId: widgetIdSchema,
  range: rangeOverrideSchema.nullable().default(null),
});

/* ------------------------------------------------------------------ widget data */

/**
 * Run a widget's query with the viewer's scope. Either a saved widget (`dashboardId` + `widgetId`) or an unsaved
 * definition (`widget`, the editor's preview); `range` overrides the widget's range (a range chosen on a chart).
 */
export const widgetDataInputSchema = z.union([
  z.strictObject({ dashboardId: idSchema, widgetId: widgetIdSchema, range: rangeOverrideSchema.nullable().default(null) }),
  z.strictObject({ widget: widgetSchema, range: rangeOverrideSchema.nullable().default(null) }),
]);
export type WidgetDataInput = z.input<typeof widgetDataInputSchema>;

const pointSchema = z.object({ ts: z.number(), value: z.union([z.number(), z.string(), z.null()]) });
const scalar = z.union([z.number(), z.string(), z.boolean(), z.null()]);

export const widgetDataSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('timeseries'),
    startTs: z.number(),
    endTs: z.number(),
    agg: z.enum(TELEMETRY_AGGREGATIONS),
    interval: z.number().nullable(),
    series: z.array(
      z.object({
        deviceId: z.number().int(),
        deviceLabel: z.string(),
        /** The device's site: devices of several sites often share a label (DG-01). */
        siteName: z.string().nullable(),
        key: z.string(),
        points: z.array(pointSchema),
        truncated: z.boolean(),
      }),
    ),
  }),
  z.object({
    kind: z.literal('latest'),
    deviceId: z.number().int(),
    deviceLabel: z.string(),
    siteName: z.string().nullable(),
    status: z.string(),
    key: z.string().nullable(),
    value: scalar,
    ts: z.number().nullable(),
  }),
  z.object({
    kind: z.literal('siteSummary'),
    rows: z.array(
      z.object({
        type: z.string(),
        label: z.string(),
        total: z.number().int(),
        online: z.number().int(),
        offline: z.number().int(),
        notC: z.number().int(),
      }),
    ),
    sites: z.number().int(),
  }),
  z.object({
    kind: z.literal('alarmList'),
    rows: z.array(
      z.object({
        id: z.number().int(),
        deviceId: z.number().int(),
        deviceLabel: z.string(),
        siteId: z.number().int().nullable(),
        siteName: z.string().nullable(),
        severity: z.string(),
        state: z.string(),
        message: z.string(),
        createdAt: z.string(),
      }),
    ),
    totalCount: z.number().int(),
    truncated: z.boolean(),
  }),
  z.object({
    kind: z.literal('ticketCounters'),
    counts: z.array(z.object({ status: z.string(), label: z.string(), color: z.string(), count: z.number().int() })),
    total: z.number().int(),
  }),
  z.object({
    kind: z.literal('ticketList'),
    rows: z.array(
      z.object({
        id: z.number().int(),
        ticketId: z.string(),
        title: z.string(),
        status: z.string(),
        priority: z.string(),
        type: z.string(),
        siteId: z.number().int().nullable(),
        siteName: z.string().nullable(),
        createdAt: z.string(),
      }),
    ),
    totalCount: z.number().int(),
    truncated: z.boolean(),
  }),
  z.object({
    kind: z.literal('siteMap'),
    sites: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        devices: z.number().int(),
        offline: z.number().int(),
      }),
    ),
    truncated: z.boolean(),
  }),
  z.object({
    kind: z.literal('camera'),
    cameraId: z.number().int(),
    name: z.string(),
    siteId: z.number().int().nullable(),
    siteName: z.string().nullable(),
    /** Playback instant when a range was chosen (its start), else null = live. */
    playbackAt: z.number().nullable(),
  }),
  /** The viewer may not see what the widget is bound to: said plainly, not as an error to retry. */
  z.object({ kind: z.literal('unavailable'), reason: z.string() }),
  z.object({
    kind: z.literal('formResponses'),
    formId: z.number().int(),
    formName: z.string(),
    total: z.number().int(),
    perDay: z.array(z.object({ day: z.string(), count: z.number().int() })),
  }),
]);
export type WidgetData = z.infer<typeof widgetDataSchema>;
/** Answer of a widget query: the data, and for a component widget the component it resolved to. */
export const widgetDataResponseSchema = z.object({
  widgetId: z.string(),
  componentId: z.number().int().nullable(),
  data: widgetDataSchema,
});
/** Widgets of one saved dashboard asked for at once (its first screen, on navigation: one request, not one each). */
export const WIDGET_BATCH_MAX = 24;
export const widgetDataBatchInputSchema = z.strictObject({
  dashboardId: idSchema,
  widgetIds: z.array(widgetIdSchema).min(1).max(WIDGET_BATCH_MAX),
});
/** Each widget's answer, or null when it has none (that widget then asks on its own and shows why). */
export const widgetDataBatchSchema = z.object({
  contents: z.array(z.object({ widgetId: z.string(), answer: widgetDataResponseSchema.nullable() })),
});
export type WidgetDataBatch = z.infer<typeof widgetDataBatchSchema>;

export type WidgetDataResponse = z.infer<typeof widgetDataResponseSchema>;

/* ------------------------------------------------------------------ menu catalogue */

/** SPEC 3: Dashboard menu catalogue item. */
export const dashboardMenuItemSchema = z.object({
  label: z.string(),
  value: z.string(),
  settings: z.record(z.string(), z.unknown()).optional(),
  childUrls: z.array(z.string()).optional(),
});
export type DashboardMenuItem = z.infer<typeof dashboardMenuItemSchema>;

/** Push event: a dashboard, folder, component or analytics link of the tenant changed (to users with view_dashboard). */
export const DASHBOARD_PUSH_TOPIC = 'dashboard.changed';
export interface DashboardChangedPayload {
  kind: 'dashboard' | 'folder' | 'component' | 'link';
  /** Dashboard, folder or component id; the link's uuid. */
  id: number | string;
  /** The dashboard concerned (a dashboard's own id, or the link's dashboard), else null. */
  dashboardId: number | null;
}
