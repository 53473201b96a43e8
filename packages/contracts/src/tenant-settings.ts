import { z } from 'zod';
import { timeZoneSchema } from './calendar.ts';
import { DEFAULT_ALIASES, TICKET_DEFAULTS } from './constants.ts';
import { DEFAULT_TREE_NAVIGATION, treeNavigationSchema } from './devices.ts';
import { roleSchema } from './role-schemas.ts';

export interface MenuItem {
  label: string;
  value: string;
  icon?: string;
  permission?: string;
  roles?: string[];
  settings?: Record<string, unknown>;
  childUrls?: string[];
  children?: MenuItem[];
}
export const menuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    label: z.string().min(1).max(80),
    value: z.string().max(300),
    icon: z.string().max(60).optional(),
    permission: z.string().max(100).optional(),
    roles: z.array(z.string()).optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
    childUrls: z.array(z.string()).optional(),
    children: z.array(menuItemSchema).optional(),
  }),
);
// Recursive schemas carry an id so the OpenAPI document names them once (a component) instead of losing the cycle.
menuItemSchema.register(z.globalRegistry, { id: 'MenuItem' });

const alarmActionSetting = z.object({ show: z.boolean().default(true), createTicket: z.boolean().default(true) });

export const customerSettingsSchema = z.object({
  treeAccess: z.boolean().default(true),
  showSystemAlert: z.boolean().default(true),
  livePopup: z.boolean().default(true),
  /** Shown as tel: and mailto: links: a phone number and an e-mail address only (never a `javascript:` text). */
  helpline: z
    .object({
      phone: z
        .string()
        .trim()
        .max(30, 'Please use maximum 30 characters')
        .regex(/^(\+?[0-9][0-9 ().-]*[0-9])?$/, 'Helpline phone must be a phone number: digits, spaces, + ( ) . -')
        .optional(),
      email: z.union([z.literal(''), z.email({ message: 'Helpline e-mail must be a valid e-mail address' }).max(254)]).optional(),
    })
    .default({}),
  aliases: z
    .object({ asset: z.string().max(40).default(DEFAULT_ALIASES.asset), ticket: z.string().max(40).default(DEFAULT_ALIASES.ticket) })
    .default({ asset: DEFAULT_ALIASES.asset, ticket: DEFAULT_ALIASES.ticket }),
  ticket: z
    .object({
      refreshInterval: z.number().int().min(TICKET_DEFAULTS.minRefreshIntervalSec).default(TICKET_DEFAULTS.refreshIntervalSec),
      initialDateFilter: z.string().default(TICKET_DEFAULTS.initialDateFilter),
      requireAttachmentForReview: z.boolean().default(TICKET_DEFAULTS.requireAttachmentForReview),
      newTicketStatus: z.string().default(TICKET_DEFAULTS.newTicketStatus),
      priority: z.string().default(TICKET_DEFAULTS.priority),
      type: z.string().default(TICKET_DEFAULTS.type),
    })
    .default({ ...TICKET_DEFAULTS, refreshInterval: TICKET_DEFAULTS.refreshIntervalSec }),
  deviceAlarmActions: z
    .object({ muteMode: alarmActionSetting, maintenanceMode: alarmActionSetting, enableDevice: alarmActionSetting })
    .default({
      muteMode: { show: true, createTicket: true },
      maintenanceMode: { show: true, createTicket: true },
      enableDevice: { show: true, createTicket: true },
    }),
  deviceLabelRule: z.enum(['noSpaces', 'any']).default('any'),
  mobileNumberLength: z.number().int().min(6).max(15).default(10),
  mfaRequiredRoles: z.array(roleSchema).default([]),
  notificationRefreshSec: z.number().int().min(3).default(30),
  downloadRefreshSec: z.number().int().min(3).default(15),
  downloadRetentionHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(72),
  popupAutoClose: z.boolean().default(true),
  popupAutoCloseSec: z.number().int().min(1).max(600).default(10),
  mapTileUrl: z.string().max(500).optional(),
  sellerLogo: z.string().max(200_000).optional(),
  menu: z.array(menuItemSchema).default([]),
  /** E-mail domains allowed to register at /register; empty lets any domain ask (an admin still approves). */
  registrationEmailDomains: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'Enter a domain such as example.com'),
    )
    .max(100)
    .default([]),
  /** How long the user activity log is kept, in days. */
  activityLogRetentionDays: z.number().int().min(30).max(3650).default(365),
  /** Attendance: how far from a site's coordinates (metres) a check-in is accepted. */
  attendanceGeofenceMeters: z.number().int().min(10).max(10_000).default(200),
  /** Attendance: a check-in needs a camera snapshot of the site (refused while its cameras have no picture). */
  attendanceSnapshotRequired: z.boolean().default(false),
  /** The tenant's IANA time zone: times in exported spreadsheets and PDFs are its local times. */
  timeZone: timeZoneSchema.default('UTC'),
  /** SPEC 2.13: the asset tree's right-click navigation entries. */
  treeNavigation: treeNavigationSchema.default(() => DEFAULT_TREE_NAVIGATION.map((e) => ({ ...e }))),
});
export type CustomerSettings = z.infer<typeof customerSettingsSchema>;
/**
 * A partial update: only the keys sent are changed. Built from the inner types, because `.partial()` would still
 * fill every default in and so overwrite what the caller did not send.
 */
export const customerSettingsUpdateSchema: z.ZodType<Partial<CustomerSettings>> = z.lazy(() =>
  // Built on first use so that importing a constant from this file never evaluates zod in the web app.
  z.object(
    Object.fromEntries(
      Object.entries(customerSettingsSchema.shape).map(([key, field]) => [
        key,
        (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional(),
      ]),
    ),
  ),
);

export const customerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  logo: z.string().nullable(),
});
export const customerLogoSchema = z.object({ name: z.string(), logo: z.string().nullable() });
export const customerSettingsResponseSchema = z.object({ settings: customerSettingsSchema });

export const systemAlertSchema = z.object({ id: z.number().int(), message: z.string() });
export const systemAlertListSchema = z.array(systemAlertSchema);
export const systemAlertCreateSchema = z.object({
  message: z.string().trim().min(1, 'Message is required').max(250, 'Please use maximum 250 characters'),
});

export const OUTBOUND_NETWORKS_LIMITS = { entries: 100, entryLength: 50 } as const;
export const OUTBOUND_NETWORKS_MESSAGES = {
  entry: 'Each network is `public`, an address such as 192.0.2.7 or a CIDR such as 10.1.0.0/16',
  tooMany: `Please list at most ${OUTBOUND_NETWORKS_LIMITS.entries} networks`,
  invalid: (entry: string) => `${entry} is not \`public\`, an address or a CIDR such as 10.1.0.0/16`,
} as const;

/**
 * The networks a tenant's devices may be dialled in (diagnostics, camera streams, SNMP, trap destinations), set by
 * the system administrator: `public` for every public address, and addresses or CIDRs of site networks.
 */
export const outboundNetworksSchema = z.object({
  /** The tenant's own list; null: the install's default. */
  networks: z.array(z.string()).nullable(),
  /** The install's default (OUTBOUND_NETWORKS). */
  installDefault: z.array(z.string()),
});
export type OutboundNetworksAnswer = z.infer<typeof outboundNetworksSchema>;

export const outboundNetworksUpdateSchema = z.strictObject({
  networks: z
    .array(
      z
        .string({ message: OUTBOUND_NETWORKS_MESSAGES.entry })
        .trim()
        .min(1, OUTBOUND_NETWORKS_MESSAGES.entry)
        .max(OUTBOUND_NETWORKS_LIMITS.entryLength, OUTBOUND_NETWORKS_MESSAGES.entry)
        .regex(/^(public|[0-9A-Fa-f:.]+(\/\d{1,3})?)$/, OUTBOUND_NETWORKS_MESSAGES.entry),
      { message: OUTBOUND_NETWORKS_MESSAGES.entry },
    )
    .max(OUTBOUND_NETWORKS_LIMITS.entries, OUTBOUND_NETWORKS_MESSAGES.tooMany)
    .nullable(),
});
export type OutboundNetworksUpdate = z.infer<typeof outboundNetworksUpdateSchema>;
