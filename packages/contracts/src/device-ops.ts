import { z } from 'zod';
import { idCoerced, idSchema } from './common.ts';
import type { PermissionCodename } from './permissions.ts';
import { limitParam, pageParam, searchText } from './query.ts';

/**
 * Device operations (SPEC 1, 2.2): /access-control (doors and readers), /router (WAN and cellular links),
 * /rtu-multisite and eth-single-site/view/{id} (ethernet RTU inputs and outputs), /diagnostics (probes run from the
 * server against a device's declared host). Door, output and reboot actions are device commands (`commands.ts`).
 */

export const DEVICE_OPS_PERMISSIONS = {
  view: 'view_device',
  diagnose: 'run_diagnostics',
} as const satisfies Record<string, PermissionCodename>;

/** The command methods the device kinds answer (sent through the commands API). */
export const DEVICE_OPS_METHODS = {
  openDoor: 'openDoor',
  setOutput: 'setOutput',
  reboot: 'reboot',
} as const;

/** Telemetry keys the device kinds report. A door or an I/O point is numbered from 1. */
export const ACCESS_KEYS = {
  event: 'accessEvent',
  anyForced: 'doorForced',
  anyHeldOpen: 'doorHeldOpen',
  open: (door: number) => `door${door}Open`,
  forced: (door: number) => `door${door}Forced`,
  heldOpen: (door: number) => `door${door}HeldOpen`,
} as const;
export const RTU_KEYS = {
  input: (n: number) => `di${n}`,
  output: (n: number) => `do${n}`,
} as const;
export const ROUTER_KEYS = {
  activeInterface: 'activeInterface',
  dataUsageMb: 'dataUsageMb',
  uptimeSeconds: 'uptimeSeconds',
  wanIp: 'wanIp',
  up: (iface: string) => `${iface}Up`,
  signal: (iface: string) => `${iface}Signal`,
} as const;

/** A router's links: wired WAN and two cellular modems (signal in dBm). */
export const ROUTER_INTERFACES = [
  { name: 'wan', label: 'WAN', cellular: false },
  { name: 'cell1', label: 'Cellular SIM 1', cellular: true },
  { name: 'cell2', label: 'Cellular SIM 2', cellular: true },
] as const;

export const ACCESS_EVENT_KINDS = ['granted', 'denied', 'forced', 'held_open', 'remote_open'] as const;
export type AccessEventKind = (typeof ACCESS_EVENT_KINDS)[number];
export const ACCESS_EVENT_LABELS: Record<AccessEventKind, string> = {
  granted: 'Access granted',
  denied: 'Access denied',
  forced: 'Door forced',
  held_open: 'Door held open',
  remote_open: 'Opened remotely',
};

/** What an access controller reports in its `accessEvent` telemetry value (JSON text). */
export const accessEventReportSchema = z.object({
  door: z.number().int().min(1).max(64),
  kind: z.enum(ACCESS_EVENT_KINDS),
  credential: z.string().max(120).default(''),
});

export const DIAGNOSTIC_TOOLS = ['ping', 'tcp', 'snmp', 'rtsp', 'last-contact'] as const;
export type DiagnosticTool = (typeof DIAGNOSTIC_TOOLS)[number];
export const DIAGNOSTIC_TOOL_LABELS: Record<DiagnosticTool, string> = {
  ping: 'Ping',
  tcp: 'TCP port check',
  snmp: 'SNMP get',
  rtsp: 'RTSP stream probe',
  'last-contact': 'Last contact (MQTT/HTTP)',
};
export const DIAGNOSTIC_STATUSES = ['running', 'succeeded', 'failed'] as const;
export type DiagnosticStatus = (typeof DIAGNOSTIC_STATUSES)[number];
export const DIAGNOSTIC_LIMITS = { outputBytes: 32_768, oid: 128, attachNote: 4000 } as const;

export const DEVICE_OPS_MESSAGES = {
  noHost: 'This device declares no host to probe',
  noStream: 'This device declares no RTSP stream to probe',
  hostRefused: 'The device host is not an address diagnostics may reach',
  hostUnresolved: 'The device host does not resolve',
  hostOutsideNetworks: "The device host is outside the networks this organisation's devices may use (a system administrator sets them)",
  deviceUnknown: 'Device not found',
  siteUnknown: 'Site not found',
  runUnknown: 'Diagnostic run not found',
  ticketUnknown: 'Ticket not found',
  stillRunning: 'The diagnostic is still running',
  attached: 'Result added to the ticket',
  tooMany: 'Too many diagnostics running; try again shortly',
  openDoorConfirm: (door: string) => `Open ${door} now?`,
  rebootConfirm: (router: string) => `Reboot ${router}? The site goes offline for a few minutes.`,
  outputConfirm: (output: string, on: boolean) => `Switch ${output} ${on ? 'on' : 'off'}?`,
} as const;

const siteRef = { assetId: z.number().int().nullable(), siteName: z.string().nullable() };
const deviceBase = {
  deviceId: z.number().int(),
  deviceLabel: z.string(),
  ...siteRef,
  status: z.string(),
  alarmStatus: z.string().nullable(),
  lastActivityAt: z.string().nullable(),
};

const listQuery = {
  assetId: idCoerced.optional(),
  search: searchText.optional(),
  page: pageParam,
  limit: limitParam(200, 50),
};

/* ------------------------------------------------------------------ access control */

export const doorSchema = z.object({
  ...deviceBase,
  door: z.number().int(),
  name: z.string(),
  reader: z.string(),
  open: z.boolean().nullable(),
  forced: z.boolean().nullable(),
  heldOpen: z.boolean().nullable(),
});
export type Door = z.infer<typeof doorSchema>;
export const doorListQuerySchema = z.strictObject(listQuery);
export const doorListSchema = z.object({ contents: z.array(doorSchema), totalCount: z.number().int() });
export type DoorList = z.infer<typeof doorListSchema>;

export const accessEventSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  deviceLabel: z.string(),
  ...siteRef,
  door: z.number().int(),
  doorName: z.string(),
  kind: z.enum(ACCESS_EVENT_KINDS),
  credential: z.string(),
  at: z.string(),
});
export type AccessEvent = z.infer<typeof accessEventSchema>;
export const accessEventQuerySchema = z.strictObject({
  assetId: idCoerced.optional(),
  deviceId: idCoerced.optional(),
  kind: z.enum(ACCESS_EVENT_KINDS).optional(),
  page: pageParam,
  limit: limitParam(200, 25),
});
export const accessEventListSchema = z.object({ contents: z.array(accessEventSchema), totalCount: z.number().int() });
export type AccessEventList = z.infer<typeof accessEventListSchema>;

/** Pushed when an access controller reports an event (`device.access-event`). */
export interface AccessEventPayload {
  deviceId: number;
  assetId: number | null;
  door: number;
  kind: AccessEventKind;
}

/* ------------------------------------------------------------------ routers */

export const routerInterfaceSchema = z.object({
  name: z.string(),
  label: z.string(),
  cellular: z.boolean(),
  up: z.boolean().nullable(),
  signal: z.number().nullable(),
});
export const routerSchema = z.object({
  ...deviceBase,
  activeInterface: z.string().nullable(),
  interfaces: z.array(routerInterfaceSchema),
  dataUsageMb: z.number().nullable(),
  uptimeSeconds: z.number().nullable(),
  wanIp: z.string().nullable(),
});
export type RouterView = z.infer<typeof routerSchema>;
export const routerListQuerySchema = z.strictObject(listQuery);
export const routerListSchema = z.object({ contents: z.array(routerSchema), totalCount: z.number().int() });
export type RouterList = z.infer<typeof routerListSchema>;

/* ------------------------------------------------------------------ ethernet RTUs */

export const ioPointSchema = z.object({ no: z.number().int(), name: z.string(), on: z.boolean().nullable() });
export type IoPoint = z.infer<typeof ioPointSchema>;
export const rtuSchema = z.object({
  ...deviceBase,
  inputs: z.array(ioPointSchema),
  outputs: z.array(ioPointSchema),
});
export type Rtu = z.infer<typeof rtuSchema>;
export const rtuListQuerySchema = z.strictObject(listQuery);
export const rtuListSchema = z.object({ contents: z.array(rtuSchema), totalCount: z.number().int() });
export type RtuList = z.infer<typeof rtuListSchema>;
export const rtuSiteSchema = z.object({ site: z.object({ id: z.number().int(), name: z.string() }), rtus: z.array(rtuSchema) });
export type RtuSite = z.infer<typeof rtuSiteSchema>;

/* ------------------------------------------------------------------ diagnostics */

export const diagnosticTargetSchema = z.object({
  deviceId: z.number().int(),
  deviceLabel: z.string(),
  type: z.string(),
  ...siteRef,
  status: z.string(),
  host: z.string().nullable(),
  /** The RTSP URL the stream probe opens, its credentials masked. */
  stream: z.string().nullable(),
  tools: z.array(z.enum(DIAGNOSTIC_TOOLS)),
});
export type DiagnosticTarget = z.infer<typeof diagnosticTargetSchema>;
export const diagnosticTargetQuerySchema = z.strictObject(listQuery);
export const diagnosticTargetListSchema = z.object({ contents: z.array(diagnosticTargetSchema), totalCount: z.number().int() });

export const diagnosticRunInputSchema = z.strictObject({
  deviceId: idSchema,
  tool: z.enum(DIAGNOSTIC_TOOLS, { message: `tool must be one of ${DIAGNOSTIC_TOOLS.join(', ')}` }),
  port: z.number().int().min(1).max(65_535).optional(),
  oid: z
    .string()
    .trim()
    .max(DIAGNOSTIC_LIMITS.oid)
    .regex(/^\d+(\.\d+){1,40}$/, 'Enter an OID such as 1.3.6.1.2.1.1.1.0')
    .optional(),
});
export type DiagnosticRunInput = z.input<typeof diagnosticRunInputSchema>;

export const diagnosticRunSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  deviceLabel: z.string(),
  assetId: z.number().int().nullable(),
  tool: z.enum(DIAGNOSTIC_TOOLS),
  target: z.string(),
  status: z.enum(DIAGNOSTIC_STATUSES),
  output: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  startedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  ticketId: z.number().int().nullable(),
});
export type DiagnosticRun = z.infer<typeof diagnosticRunSchema>;
export const diagnosticRunQuerySchema = z.strictObject({
  deviceId: idCoerced.optional(),
  page: pageParam,
  limit: limitParam(100, 20),
});
export const diagnosticRunListSchema = z.object({ contents: z.array(diagnosticRunSchema), totalCount: z.number().int() });
export const diagnosticAttachSchema = z.strictObject({ ticketId: idSchema });

/** Messages on a run's WebSocket: output lines as they come, then the end. */
export type DiagnosticStreamMessage = { type: 'line'; text: string } | { type: 'end'; status: DiagnosticStatus };

export const DEVICE_OPS_PATHS = {
  doors: '/api/device-ops/access/doors/',
  accessEvents: '/api/device-ops/access/events/',
  routers: '/api/device-ops/routers/',
  rtus: '/api/device-ops/rtus/',
  rtuSite: '/api/device-ops/rtus/sites/{id}/',
  targets: '/api/device-ops/diagnostics/targets/',
  runs: '/api/device-ops/diagnostics/runs/',
  run: '/api/device-ops/diagnostics/runs/{id}/',
  runSocket: '/api/device-ops/diagnostics/runs/{id}/ws',
  attach: '/api/device-ops/diagnostics/runs/{id}/attach/',
} as const;
