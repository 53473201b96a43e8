import { z } from 'zod';
import { idCoerced, idSchema } from './common.ts';

/**
 * Device commands (server-side RPC, ThingsBoard conventions). A device connected to the MQTT broker subscribes to
 * `v1/devices/me/rpc/request/+`, gets `{ method, params }` on `v1/devices/me/rpc/request/{requestId}` and answers
 * on `v1/devices/me/rpc/response/{requestId}`. An HTTP device long-polls `GET /api/v1/{token}/rpc?timeout=ms` and
 * answers with `POST /api/v1/{token}/rpc/{requestId}`. Through an external broker the token replaces `me`.
 */

/** The permission to send commands; viewing a device's commands needs only `view_device`. */
export const COMMAND_PERMISSION = 'send_command' as const;

export const COMMAND_TOPICS = {
  requestSubscription: 'v1/devices/me/rpc/request/+',
  request: (requestId: number) => `v1/devices/me/rpc/request/${requestId}`,
  response: (requestId: number) => `v1/devices/me/rpc/response/${requestId}`,
  responsePrefix: 'v1/devices/me/rpc/response/',
  tokenRequest: (token: string, requestId: number) => `v1/devices/${token}/rpc/request/${requestId}`,
  tokenResponseFilter: 'v1/devices/+/rpc/response/+',
} as const;

/**
 * queued: stored, not yet handed to the device (it is offline, or not subscribed);
 * sent: published to the device's live subscription (or handed to its waiting HTTP poll; through an external broker:
 *   the broker acknowledged the publish, which says nothing of the device);
 * delivered: the device acknowledged it (MQTT PUBACK at QoS 1, or a reply; a one-way command ends here; through an
 *   external broker only a reply tells, so a one-way command there ends in timeout);
 * successful: a two-way command's reply came back; failed: the reply reported an error, or the device refused it;
 * timeout: a two-way command got no reply within its timeout after it was sent;
 * expired: never sent before its expiry.
 */
export const COMMAND_STATES = ['queued', 'sent', 'delivered', 'successful', 'timeout', 'failed', 'expired'] as const;
export type CommandState = (typeof COMMAND_STATES)[number];
/** States after which nothing changes any more. */
export const COMMAND_FINAL_STATES: readonly CommandState[] = ['successful', 'timeout', 'failed', 'expired'];
export const COMMAND_STATE_LABELS: Record<CommandState, string> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  successful: 'Successful',
  timeout: 'Timed out',
  failed: 'Failed',
  expired: 'Expired',
};
export const isFinalCommandState = (state: CommandState) => COMMAND_FINAL_STATES.includes(state);

export const COMMAND_LIMITS = {
  method: 64,
  /** Serialized JSON params, in bytes. */
  paramsBytes: 8192,
  /** A device's reply kept with the command, in bytes (a larger reply is refused as failed). */
  responseBytes: 65_536,
  timeoutMsMin: 1000,
  timeoutMsMax: 600_000,
  timeoutMsDefault: 10_000,
  /** How long a command may wait for its device. */
  expiryMsMin: 1000,
  expiryMsMax: 7 * 86_400_000,
  expiryMsDefault: 86_400_000,
  /** Devices one bulk command may address. */
  bulkMaxDevices: 1000,
  /** HTTP long-poll wait of a device, in ms. */
  pollMsMax: 60_000,
  pollMsDefault: 30_000,
} as const;

export const COMMAND_MESSAGES = {
  methodRequired: 'Method is required',
  methodFormat: 'Method may use letters, digits, _ - . : and / only',
  paramsTooLarge: `Params must be at most ${COMMAND_LIMITS.paramsBytes} bytes of JSON`,
  paramsInvalid: 'Invalid JSON',
  deviceUnknown: 'Device not found',
  noDevices: 'No devices match',
  tooManyDevices: `A bulk command may address at most ${COMMAND_LIMITS.bulkMaxDevices} devices`,
  sent: 'Command sent',
  queued: 'Command queued until the device connects',
} as const;

const methodSchema = z
  .string({ message: COMMAND_MESSAGES.methodRequired })
  .trim()
  .min(1, COMMAND_MESSAGES.methodRequired)
  .max(COMMAND_LIMITS.method, `Please use maximum ${COMMAND_LIMITS.method} characters`)
  .regex(/^[A-Za-z0-9_.:/-]+$/, COMMAND_MESSAGES.methodFormat);

/** Any JSON value up to the size limit (null when absent). */
export const commandParamsSchema = z
  .unknown()
  .default(null)
  .refine((v) => {
    try {
      const text = JSON.stringify(v ?? null);
      return text !== undefined && new TextEncoder().encode(text).length <= COMMAND_LIMITS.paramsBytes;
    } catch {
      return false;
    }
  }, COMMAND_MESSAGES.paramsTooLarge)
  .transform((v) => (v === undefined ? null : (JSON.parse(JSON.stringify(v ?? null)) as unknown)));

const commandOptions = {
  method: methodSchema,
  params: commandParamsSchema,
  /** One-way: no reply is awaited; the command ends delivered. */
  oneway: z.boolean().default(false),
  /** How long a two-way command waits for the reply once sent. */
  timeoutMs: z.number().int().min(COMMAND_LIMITS.timeoutMsMin).max(COMMAND_LIMITS.timeoutMsMax).default(COMMAND_LIMITS.timeoutMsDefault),
  /** How long the command may wait for an offline device before it expires. */
  expiresInMs: z.number().int().min(COMMAND_LIMITS.expiryMsMin).max(COMMAND_LIMITS.expiryMsMax).default(COMMAND_LIMITS.expiryMsDefault),
};

export const commandRequestSchema = z.strictObject({ deviceId: idSchema, ...commandOptions });
export type CommandRequest = z.input<typeof commandRequestSchema>;
export type CommandRequestParsed = z.output<typeof commandRequestSchema>;

export const commandSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  deviceLabel: z.string(),
  assetId: z.number().int().nullable(),
  /** The device's site (`nameWithSite`): labels repeat at every site. */
  siteName: z.string().nullable(),
  bulkId: z.number().int().nullable(),
  method: z.string(),
  params: z.unknown(),
  oneway: z.boolean(),
  timeoutMs: z.number().int(),
  state: z.enum(COMMAND_STATES),
  /** The device's reply (two-way), or why the command failed. */
  response: z.unknown(),
  error: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** Who sent it (null: the system). */
  createdBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Every state change, oldest first, with the transport that held the command then (only when read one by one). */
  history: z.array(z.object({ state: z.enum(COMMAND_STATES), transport: z.string().nullable(), at: z.string() })).optional(),
});
export type DeviceCommand = z.infer<typeof commandSchema>;

/** Finds commands by their device's label, its site's name or the method (labels repeat at every site). */
const commandSearchSchema = z.string().trim().max(100, 'search must be at most 100 characters').optional();

export const commandListQuerySchema = z.strictObject({
  deviceId: idCoerced.optional(),
  bulkId: idCoerced.optional(),
  state: z.enum(COMMAND_STATES).optional(),
  search: commandSearchSchema,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export type CommandListQuery = z.input<typeof commandListQuerySchema>;
export const commandListSchema = z.object({ contents: z.array(commandSchema), totalCount: z.number().int() });
export type CommandList = z.infer<typeof commandListSchema>;

/** Which devices a bulk command addresses: every visible device at a site, of a type (optionally at a site), or a selection. */
export const bulkTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('site'), assetId: idSchema }),
  z.strictObject({ kind: z.literal('type'), type: z.string().trim().min(1).max(40), assetId: idSchema.optional() }),
  z.strictObject({
    kind: z.literal('devices'),
    deviceIds: z.array(idSchema).min(1, COMMAND_MESSAGES.noDevices).max(COMMAND_LIMITS.bulkMaxDevices, COMMAND_MESSAGES.tooManyDevices),
  }),
]);
export type BulkTarget = z.infer<typeof bulkTargetSchema>;

export const bulkCommandRequestSchema = z.strictObject({ target: bulkTargetSchema, ...commandOptions });
export type BulkCommandRequest = z.input<typeof bulkCommandRequestSchema>;

export const commandStateCountsSchema = z.object(
  Object.fromEntries(COMMAND_STATES.map((s) => [s, z.number().int()])) as Record<CommandState, z.ZodNumber>,
);
export type CommandStateCounts = Record<CommandState, number>;

export const bulkCommandSchema = z.object({
  id: z.number().int(),
  method: z.string(),
  params: z.unknown(),
  oneway: z.boolean(),
  timeoutMs: z.number().int(),
  target: bulkTargetSchema,
  total: z.number().int(),
  counts: commandStateCountsSchema,
  /** Every device's command is in a final state. */
  finished: z.boolean(),
  createdAt: z.string(),
  expiresAt: z.string(),
  createdBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type BulkCommand = z.infer<typeof bulkCommandSchema>;

/** A bulk command with the state of each device's command (paged with `page`/`limit`, filtered by `state`). */
export const bulkCommandStatusSchema = bulkCommandSchema.extend({
  devices: z.array(commandSchema),
  devicesCount: z.number().int(),
});
export type BulkCommandStatus = z.infer<typeof bulkCommandStatusSchema>;
export const bulkStatusQuerySchema = z.strictObject({
  state: z.enum(COMMAND_STATES).optional(),
  search: commandSearchSchema,
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const bulkCommandListSchema = z.object({ contents: z.array(bulkCommandSchema), totalCount: z.number().int() });
export type BulkCommandList = z.infer<typeof bulkCommandListSchema>;
export const bulkListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** A device's HTTP reply body is any JSON; `{ "error": "…" }` marks the command failed. */
export const devicePollQuerySchema = z.strictObject({
  timeout: z.coerce.number().int().min(0).max(COMMAND_LIMITS.pollMsMax).default(COMMAND_LIMITS.pollMsDefault),
});
/** What a device gets: the request id and the command, as ThingsBoard sends it. */
export const deviceRpcRequestSchema = z.object({ id: z.number().int(), method: z.string(), params: z.unknown() });
export type DeviceRpcRequest = z.infer<typeof deviceRpcRequestSchema>;

/** Pushed on every state change (`command.updated`), to the users who see the device. */
export interface CommandUpdatedPayload {
  commandId: number;
  deviceId: number;
  assetId: number | null;
  bulkId: number | null;
  state: CommandState;
}

export const COMMAND_PATHS = {
  list: '/api/commands/',
  send: '/api/commands/',
  one: '/api/commands/{id}/',
  bulkList: '/api/commands/bulk/',
  bulkSend: '/api/commands/bulk/',
  bulkOne: '/api/commands/bulk/{id}/',
  devicePoll: '/api/v1/{token}/rpc',
  deviceReply: '/api/v1/{token}/rpc/{requestId}',
} as const;
