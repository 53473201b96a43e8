import { z } from 'zod';
import { ALARM_SEVERITIES } from './alarms.ts';
import { idSchema } from './common.ts';
import type { PermissionCodename } from './permissions.ts';

/** SNMP traps in (the built-in receiver, OID → alarm mappings) and trap forwarding (/trapforward/*). */

export const TRAP_PERMISSIONS = {
  viewDestination: 'view_trap_destination',
  addDestination: 'add_trap_destination',
  changeDestination: 'change_trap_destination',
  deleteDestination: 'delete_trap_destination',
  viewFilter: 'view_trap_filter',
  addFilter: 'add_trap_filter',
  changeFilter: 'change_trap_filter',
  deleteFilter: 'delete_trap_filter',
} as const satisfies Record<string, PermissionCodename>;

export const TRAP_PERMISSION_GRANTS = [
  { codename: 'view_trap_destination', name: 'Can view trap destination' },
  { codename: 'add_trap_destination', name: 'Can add trap destination' },
  { codename: 'change_trap_destination', name: 'Can change trap destination' },
  { codename: 'delete_trap_destination', name: 'Can delete trap destination' },
  { codename: 'view_trap_filter', name: 'Can view trap filter' },
  { codename: 'add_trap_filter', name: 'Can add trap filter' },
  { codename: 'change_trap_filter', name: 'Can change trap filter' },
  { codename: 'delete_trap_filter', name: 'Can delete trap filter' },
] as const;

export const SNMP_VERSIONS = ['v1', 'v2c', 'v3'] as const;
export const TRAP_MODES = ['trap', 'inform'] as const;
export const SNMP_SECURITY_LEVELS = ['noAuthNoPriv', 'authNoPriv', 'authPriv'] as const;
export const SNMP_AUTH_PROTOCOLS = ['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export const SNMP_PRIV_PROTOCOLS = ['des', 'aes', 'aes256b', 'aes256r'] as const;
export const TRAP_MAPPING_ACTIONS = ['raise', 'clear'] as const;

/** Well-known trap OIDs (SNMPv2-MIB, IF-MIB, UPS-MIB). */
export const TRAP_OIDS = {
  coldStart: '1.3.6.1.6.3.1.1.5.1',
  warmStart: '1.3.6.1.6.3.1.1.5.2',
  linkDown: '1.3.6.1.6.3.1.1.5.3',
  linkUp: '1.3.6.1.6.3.1.1.5.4',
  authenticationFailure: '1.3.6.1.6.3.1.1.5.5',
  upsTrapOnBattery: '1.3.6.1.2.1.33.2.1',
  upsTrapAlarmEntryRemoved: '1.3.6.1.2.1.33.2.4',
  snmpTrapAddress: '1.3.6.1.6.3.18.1.3.0',
  snmpTrapOid: '1.3.6.1.6.3.1.1.4.1.0',
  sysUpTime: '1.3.6.1.2.1.1.3.0',
} as const;

export const TRAP_LIMITS = { name: 120, host: 253, secret: 128, oid: 256, value: 256, user: 64 } as const;

export const TRAP_MESSAGES = {
  created: 'Successfully Created',
  updated: 'Successfully Updated',
  deleted: 'Successfully Deleted',
  nameRequired: 'Name is required',
  hostRequired: 'Host is required',
  oid: 'Enter an OID such as 1.3.6.1.6.3.1.1.5.3',
  destinationUnknown: 'Trap destination not found',
  filterUnknown: 'Trap filter not found',
  mappingUnknown: 'OID mapping not found',
  deviceUnknown: 'Device not found',
  siteUnknown: 'Site not found',
  communityRequired: 'Community is required for SNMP v1 and v2c',
  userRequired: 'User name is required for SNMP v3',
  authKeyRequired: 'Authentication key (at least 8 characters) is required for this security level',
  privKeyRequired: 'Privacy key (at least 8 characters) is required for authPriv',
  informV1: 'SNMP v1 has no informs: choose trap',
  hostNotAllowed: 'This host may not receive traps from this server (loopback, link-local, metadata or this machine)',
  hostOutsideNetworks: "This host is outside the networks this organisation's devices may use (a system administrator sets them)",
  hostUnresolved: 'Host does not resolve',
  destinationsRequired: 'Choose at least one destination',
  varbindPair: 'Give both the varbind OID and its value, or neither',
  relayInvalid: 'Relay must be an IP address or a CIDR such as 192.0.2.0/24',
  userTaken: 'This SNMPv3 user name is already in use: choose another',
  userTwice: 'Each SNMPv3 user name may appear once',
  userName: 'User name may use letters, digits, dot, dash and underscore',
  receivingSaved: 'Receiving settings saved',
  communityRenewed: 'A new community was made: update your devices',
} as const;

const max = (n: number) => `Please use maximum ${n} characters`;
const text = (n: number) => z.string().trim().max(n, max(n));
/** A dotted OID: numbers only, 2 to 128 arcs. */
export const oidSchema = z
  .string()
  .trim()
  .max(TRAP_LIMITS.oid, max(TRAP_LIMITS.oid))
  .regex(/^\.?\d{1,10}(\.\d{1,10}){1,127}$/, TRAP_MESSAGES.oid)
  .transform((v) => v.replace(/^\./, ''));
/** An OID prefix for a filter: empty matches every trap. */
const oidPrefixSchema = z.union([z.literal(''), oidSchema]);
const secret = z.string().max(TRAP_LIMITS.secret, max(TRAP_LIMITS.secret));

export const trapDestinationInputSchema = z
  .strictObject({
    name: text(TRAP_LIMITS.name).min(1, TRAP_MESSAGES.nameRequired),
    host: text(TRAP_LIMITS.host)
      .min(1, TRAP_MESSAGES.hostRequired)
      .regex(/^[A-Za-z0-9.:[\]-]+$/, 'Host must be a host name or an IP address'),
    port: z.number().int().min(1).max(65535).default(162),
    version: z.enum(SNMP_VERSIONS, { message: 'Version must be v1, v2c or v3' }),
    mode: z.enum(TRAP_MODES, { message: 'Mode must be trap or inform' }).default('trap'),
    /** Write-only: null or absent on update keeps the stored one. */
    community: secret.nullable().optional(),
    user: text(TRAP_LIMITS.user).default(''),
    securityLevel: z.enum(SNMP_SECURITY_LEVELS).default('noAuthNoPriv'),
    authProtocol: z.enum(SNMP_AUTH_PROTOCOLS).default('sha'),
    authKey: secret.nullable().optional(),
    privProtocol: z.enum(SNMP_PRIV_PROTOCOLS).default('aes'),
    privKey: secret.nullable().optional(),
    enabled: z.boolean().default(true),
  })
  .superRefine((d, ctx) => {
    if (d.version === 'v1' && d.mode === 'inform') ctx.addIssue({ code: 'custom', path: ['mode'], message: TRAP_MESSAGES.informV1 });
    if (d.version === 'v3' && d.user === '') ctx.addIssue({ code: 'custom', path: ['user'], message: TRAP_MESSAGES.userRequired });
  });
export type TrapDestinationInput = z.infer<typeof trapDestinationInputSchema>;

export const trapFailureSchema = z.object({ at: z.string(), trapOid: z.string(), error: z.string() });
export type TrapFailure = z.infer<typeof trapFailureSchema>;

export const trapDestinationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  version: z.enum(SNMP_VERSIONS),
  mode: z.enum(TRAP_MODES),
  user: z.string(),
  securityLevel: z.enum(SNMP_SECURITY_LEVELS),
  authProtocol: z.enum(SNMP_AUTH_PROTOCOLS),
  privProtocol: z.enum(SNMP_PRIV_PROTOCOLS),
  /** Whether a secret is stored; the secret itself never leaves the server. */
  hasCommunity: z.boolean(),
  hasAuthKey: z.boolean(),
  hasPrivKey: z.boolean(),
  enabled: z.boolean(),
  sent: z.number().int(),
  failed: z.number().int(),
  dropped: z.number().int(),
  lastFailures: z.array(trapFailureSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TrapDestination = z.infer<typeof trapDestinationSchema>;
export const trapDestinationListSchema = z.object({ contents: z.array(trapDestinationSchema), totalCount: z.number().int() });

export const trapFilterInputSchema = z
  .strictObject({
    name: text(TRAP_LIMITS.name).min(1, TRAP_MESSAGES.nameRequired),
    oidPrefix: oidPrefixSchema.default(''),
    varbindOid: oidSchema.nullable().default(null),
    /** The varbind's value contains this text (case-insensitive). */
    varbindValue: text(TRAP_LIMITS.value).nullable().default(null),
    deviceId: idSchema.nullable().default(null),
    assetId: idSchema.nullable().default(null),
    /** Matches traps whose mapped alarm is at least this severe (traps without a mapping never match). */
    minSeverity: z.enum(ALARM_SEVERITIES).nullable().default(null),
    destinationIds: z.array(idSchema).min(1, TRAP_MESSAGES.destinationsRequired).max(20),
    enabled: z.boolean().default(true),
  })
  .superRefine((d, ctx) => {
    if ((d.varbindOid === null) !== (d.varbindValue === null || d.varbindValue === ''))
      ctx.addIssue({ code: 'custom', path: ['varbindValue'], message: TRAP_MESSAGES.varbindPair });
  });
export type TrapFilterInput = z.infer<typeof trapFilterInputSchema>;

export const trapFilterSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  oidPrefix: z.string(),
  varbindOid: z.string().nullable(),
  varbindValue: z.string().nullable(),
  deviceId: z.number().int().nullable(),
  deviceLabel: z.string().nullable(),
  /** The site of the device it names (`nameWithSite`): labels repeat at every site. */
  deviceSiteName: z.string().nullable(),
  assetId: z.number().int().nullable(),
  siteName: z.string().nullable(),
  minSeverity: z.enum(ALARM_SEVERITIES).nullable(),
  destinationIds: z.array(z.number().int()),
  enabled: z.boolean(),
  matched: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TrapFilter = z.infer<typeof trapFilterSchema>;
export const trapFilterListSchema = z.object({ contents: z.array(trapFilterSchema), totalCount: z.number().int() });

export const trapMappingInputSchema = z.strictObject({
  name: text(TRAP_LIMITS.name).min(1, TRAP_MESSAGES.nameRequired),
  trapOid: oidSchema,
  action: z.enum(TRAP_MAPPING_ACTIONS, { message: 'Action must be raise or clear' }),
  /** A raise and the clear that ends it share this key (linkDown raises "Link down", linkUp clears it). */
  alarmKey: text(80).min(1, 'Alarm key is required'),
  /** The varbind (OID prefix) whose value tells instances apart, e.g. ifIndex for one alarm per port. */
  instanceOid: oidSchema.nullable().default(null),
  severity: z.enum(ALARM_SEVERITIES).default('MAJOR'),
  createTicket: z.boolean().default(false),
  deviceType: text(40).nullable().default(null),
  enabled: z.boolean().default(true),
});
export type TrapMappingInput = z.infer<typeof trapMappingInputSchema>;
export const trapMappingSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  trapOid: z.string(),
  action: z.enum(TRAP_MAPPING_ACTIONS),
  alarmKey: z.string(),
  instanceOid: z.string().nullable(),
  severity: z.enum(ALARM_SEVERITIES),
  createTicket: z.boolean(),
  deviceType: z.string().nullable(),
  enabled: z.boolean(),
});
export type TrapMapping = z.infer<typeof trapMappingSchema>;
export const trapMappingListSchema = z.object({ contents: z.array(trapMappingSchema), totalCount: z.number().int() });

export const trapVarbindSchema = z.object({ oid: z.string(), type: z.string(), value: z.string() });
export type TrapVarbind = z.infer<typeof trapVarbindSchema>;

export const unmatchedTrapSchema = z.object({
  id: z.number().int(),
  source: z.string(),
  version: z.string(),
  trapOid: z.string(),
  reason: z.enum(['unknown-source', 'no-mapping']),
  deviceId: z.number().int().nullable(),
  deviceLabel: z.string().nullable(),
  /** The device's site (`nameWithSite`). */
  deviceSiteName: z.string().nullable(),
  count: z.number().int(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  varbinds: z.array(trapVarbindSchema),
});
export type UnmatchedTrap = z.infer<typeof unmatchedTrapSchema>;
export const unmatchedTrapListSchema = z.object({ contents: z.array(unmatchedTrapSchema), totalCount: z.number().int() });
export const unmatchedTrapQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(25),
  reason: z.enum(['unknown-source', 'no-mapping']).optional(),
  /** Finds traps by their device's label, its site's name, the source address or the trap OID. */
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
});

export const trapStatsSchema = z.object({
  received: z.number().int(),
  matched: z.number().int(),
  unmatched: z.number().int(),
  deduped: z.number().int(),
  rateLimited: z.number().int(),
  alarms: z.number().int(),
  forwarded: z.number().int(),
  /**
   * System administrators only (null for everyone else): traps no tenant took. `refused`: unknown community or v3
   * user; `unknownSource`: a tenant's credentials but no device of the tenant at the source.
   */
  install: z.object({ refused: z.number().int(), unknownSource: z.number().int() }).nullable(),
});
export type TrapStats = z.infer<typeof trapStatsSchema>;

export const trapListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** How a tenant's devices send traps to the receiver: its community, its v3 users, the relays it trusts. */
export const TRAP_RECEIVING_LIMITS = { relays: 50, users: 20, relay: 49 } as const;

export const trapUserInputSchema = z.strictObject({
  name: text(TRAP_LIMITS.user)
    .min(1, TRAP_MESSAGES.userRequired)
    .regex(/^[A-Za-z0-9._-]+$/, TRAP_MESSAGES.userName),
  securityLevel: z.enum(SNMP_SECURITY_LEVELS).default('authPriv'),
  authProtocol: z.enum(SNMP_AUTH_PROTOCOLS).default('sha'),
  /** Write-only: absent or null keeps the stored key of a user of this name. */
  authKey: secret.nullable().optional(),
  privProtocol: z.enum(SNMP_PRIV_PROTOCOLS).default('aes'),
  privKey: secret.nullable().optional(),
});
export type TrapUserInput = z.infer<typeof trapUserInputSchema>;

export const trapReceivingInputSchema = z.strictObject({
  /** Addresses or CIDRs of relays (a NMS, a proxy) whose snmpTrapAddress.0 names the device. */
  relays: z
    .array(
      z
        .string()
        .trim()
        .max(TRAP_RECEIVING_LIMITS.relay, max(TRAP_RECEIVING_LIMITS.relay))
        .regex(/^[0-9A-Fa-f:.]+(\/\d{1,3})?$/, TRAP_MESSAGES.relayInvalid),
    )
    .max(TRAP_RECEIVING_LIMITS.relays, `At most ${TRAP_RECEIVING_LIMITS.relays} relays`)
    .default([]),
  users: z.array(trapUserInputSchema).max(TRAP_RECEIVING_LIMITS.users, `At most ${TRAP_RECEIVING_LIMITS.users} users`).default([]),
});
export type TrapReceivingInput = z.infer<typeof trapReceivingInputSchema>;

export const trapUserSchema = z.object({
  name: z.string(),
  securityLevel: z.enum(SNMP_SECURITY_LEVELS),
  authProtocol: z.enum(SNMP_AUTH_PROTOCOLS),
  privProtocol: z.enum(SNMP_PRIV_PROTOCOLS),
  hasAuthKey: z.boolean(),
  hasPrivKey: z.boolean(),
});
export type TrapUser = z.infer<typeof trapUserSchema>;

export const trapReceivingSchema = z.object({
  /** The UDP port the receiver listens on. */
  port: z.number().int(),
  /** The tenant's v1/v2c community (shown to those who may change trap settings; made at random). */
  community: z.string(),
  relays: z.array(z.string()),
  users: z.array(trapUserSchema),
});
export type TrapReceiving = z.infer<typeof trapReceivingSchema>;
