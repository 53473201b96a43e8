import { z } from 'zod';
import { deviceTypeSchema } from './devices.ts';
import { TELEMETRY_LIMITS, telemetryKeySchema } from './telemetry.ts';

/**
 * The rest of ThingsBoard's device API (issue 45): client and shared attributes (request, response, updates pushed
 * on change), device-side RPC answered by the product, and device provisioning over MQTT. Telemetry and server-side
 * RPC (device commands) live in `telemetry.ts` and `commands.ts`.
 */

export const DEVICE_API_TOPICS = {
  /** Device → product: client attributes. Product → device: shared attribute updates, for subscribers. */
  attributes: 'v1/devices/me/attributes',
  attributesRequestPrefix: 'v1/devices/me/attributes/request/',
  attributesResponse: (requestId: string) => `v1/devices/me/attributes/response/${requestId}`,
  attributesResponseSubscription: 'v1/devices/me/attributes/response/+',
  /** Device-side RPC: the device asks on `…/rpc/request/{id}` (the same topic name server-side RPC sends on). */
  clientRpcRequestPrefix: 'v1/devices/me/rpc/request/',
  clientRpcResponse: (requestId: string) => `v1/devices/me/rpc/response/${requestId}`,
  clientRpcResponseSubscription: 'v1/devices/me/rpc/response/+',
  /** Provisioning: MQTT username `provision`, request on either topic, answer on `/provision/response`. */
  provisionUsername: 'provision',
  provisionRequest: '/provision/request',
  provisionRequestLegacy: '/provision',
  provisionResponse: '/provision/response',
} as const;

export const DEVICE_API_LIMITS = {
  /** Shared attributes one device may hold. */
  maxSharedAttributes: 100,
  /** Keys one request may name (per scope). */
  maxRequestedKeys: 100,
  /** A request id in a topic: what firmware uses (integers), kept short. */
  maxRequestIdLength: 32,
  /** Long-poll for shared attribute updates over HTTP (ms). */
  pollMsMax: 60_000,
  pollMsDefault: 30_000,
} as const;

/** What the product answers to device-side RPC; any other method gets `{ "error": … }`. */
export const CLIENT_RPC_METHODS = ['getCurrentTime', 'getSharedAttributes'] as const;
export type ClientRpcMethod = (typeof CLIENT_RPC_METHODS)[number];

export type AttributeValue = string | number | boolean;

export const attributeValueSchema = z.union([
  z.string().max(TELEMETRY_LIMITS.maxStringValueLength, `a value must be at most ${TELEMETRY_LIMITS.maxStringValueLength} characters`),
  z.number().finite(),
  z.boolean(),
]);

/** A comma-separated list of keys (`clientKeys=a,b`), as ThingsBoard firmware sends it; an array is taken too. */
export const attributeKeyListSchema = z
  .union([
    z.string().max(DEVICE_API_LIMITS.maxRequestedKeys * (TELEMETRY_LIMITS.maxKeyLength + 1)),
    z.array(z.string()).max(DEVICE_API_LIMITS.maxRequestedKeys),
  ])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((k) => k.trim()).filter((k) => k.length > 0))
  .pipe(z.array(telemetryKeySchema).max(DEVICE_API_LIMITS.maxRequestedKeys, `at most ${DEVICE_API_LIMITS.maxRequestedKeys} keys`));

/** The body of an attribute request over MQTT, and the query of `GET /api/v1/{token}/attributes`. */
export const attributeRequestSchema = z.object({
  clientKeys: attributeKeyListSchema.optional(),
  sharedKeys: attributeKeyListSchema.optional(),
});
export type AttributeRequest = z.infer<typeof attributeRequestSchema>;

export const attributeResponseSchema = z.object({
  client: z.record(z.string(), z.unknown()).optional(),
  shared: z.record(z.string(), z.unknown()).optional(),
});
export type AttributeResponse = z.infer<typeof attributeResponseSchema>;

export const attributeUpdatesQuerySchema = z.strictObject({
  timeout: z.coerce
    .number({ message: 'timeout must be a number of milliseconds' })
    .int()
    .min(0)
    .max(DEVICE_API_LIMITS.pollMsMax, `timeout must be at most ${DEVICE_API_LIMITS.pollMsMax}`)
    .default(DEVICE_API_LIMITS.pollMsDefault),
});

/** Device-side RPC as the device sends it. */
export const clientRpcRequestSchema = z.object({
  method: z.string().min(1).max(64),
  params: z.unknown().optional(),
});

/** A device's shared attributes as users read and edit them. */
export const sharedAttributeSchema = z.object({ key: z.string(), value: z.unknown(), updatedAt: z.string() });
export const sharedAttributeListSchema = z.object({ deviceId: z.number().int(), attributes: z.array(sharedAttributeSchema) });
export type SharedAttributeList = z.infer<typeof sharedAttributeListSchema>;

/** `PUT …/shared-attributes/`: keys to set (others are kept). */
export const sharedAttributesInputSchema = z
  .record(telemetryKeySchema, attributeValueSchema)
  .refine((v) => Object.keys(v).length > 0, 'Give at least one attribute')
  .refine(
    (v) => Object.keys(v).length <= DEVICE_API_LIMITS.maxSharedAttributes,
    `At most ${DEVICE_API_LIMITS.maxSharedAttributes} attributes`,
  );

/** `DELETE …/shared-attributes/?keys=a,b`. */
export const sharedAttributesDeleteQuerySchema = z.strictObject({
  keys: attributeKeyListSchema.refine((k) => k.length > 0, 'keys is required'),
});

/** ThingsBoard's provision request (HTTP body, or the MQTT payload). */
export const provisionRequestSchema = z.object({
  deviceName: z.string().trim().min(1).max(120).optional(),
  provisionDeviceKey: z.string().min(1).max(100),
  provisionDeviceSecret: z.string().min(1).max(100),
  /** The product's addition: the kind of device (default ROUTER). */
  deviceType: deviceTypeSchema.optional(),
  /** `ACCESS_TOKEN` with `token`: the device brings its own token. */
  credentialsType: z.enum(['ACCESS_TOKEN']).optional(),
  token: z
    .string()
    .min(8, 'token must be 8–64 characters')
    .max(64, 'token must be 8–64 characters')
    .regex(/^[A-Za-z0-9_-]+$/, 'token may hold only letters, digits, - and _')
    .optional(),
});
export type ProvisionRequest = z.infer<typeof provisionRequestSchema>;

export const provisionResponseSchema = z.object({
  status: z.enum(['SUCCESS', 'NOT_FOUND', 'FAILURE']),
  credentialsType: z.literal('ACCESS_TOKEN').optional(),
  credentialsValue: z.string().optional(),
  errorMsg: z.string().optional(),
});
export type ProvisionResponse = z.infer<typeof provisionResponseSchema>;
