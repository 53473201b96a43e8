import { z } from 'zod';
import { idList } from './query.ts';
import { deviceRateLimitedSchema } from './rate-limits.ts';

/**
 * Device telemetry (issue 4): what devices send (the ThingsBoard device API conventions), what the product
 * stores (a time-partitioned history and a latest-value table) and how screens read it back.
 */

/** MQTT topics of the device API. With the embedded broker a device publishes to the `me` topics with its token
 * as MQTT username; through an external broker the token travels in the topic instead (`v1/devices/{token}/…`). */
export const DEVICE_TOPICS = {
  telemetry: 'v1/devices/me/telemetry',
  attributes: 'v1/devices/me/attributes',
  tokenTelemetry: (token: string) => `v1/devices/${token}/telemetry`,
  tokenAttributes: (token: string) => `v1/devices/${token}/attributes`,
} as const;

/** Limits on what a device may send; anything beyond is refused and counted. */
export const TELEMETRY_LIMITS = {
  maxPayloadBytes: 65_536,
  maxKeysPerMessage: 200,
  maxKeyLength: 64,
  maxStringValueLength: 1024,
  /** A timestamp more than this far in the future is refused. */
  maxFutureMs: 24 * 3600 * 1000,
} as const;

/** Reasons device input is refused; each is counted. */
export const INGEST_REJECT_REASONS = [
  'malformed_json',
  'invalid_payload',
  'non_numeric',
  'too_large',
  'bad_timestamp',
  'unknown_token',
  'unknown_topic',
  'overloaded',
  'rate_limited',
] as const;
export type IngestRejectReason = (typeof INGEST_REJECT_REASONS)[number];

export type TelemetryValue = number | string | boolean;

/** Aggregations of the chart API; `none` returns raw points. */
export const TELEMETRY_AGGREGATIONS = ['none', 'avg', 'min', 'max'] as const;
export type TelemetryAggregation = (typeof TELEMETRY_AGGREGATIONS)[number];

/** Most raw points or buckets the chart API returns in one answer. */
export const TELEMETRY_MAX_POINTS = 5000;

export const telemetryKeySchema = z
  .string()
  .trim()
  .min(1, 'key is required')
  .max(TELEMETRY_LIMITS.maxKeyLength, `key must be at most ${TELEMETRY_LIMITS.maxKeyLength} characters`);

const timeParam = (name: string) =>
  z
    .union([
      z.coerce
        .number({ message: `${name} must be epoch milliseconds or an ISO date` })
        .int()
        .nonnegative(),
      z.iso.datetime({ offset: true }),
    ])
    .transform((v) => (typeof v === 'number' ? v : Date.parse(v)));

export const chartQuerySchema = z
  .strictObject({
    key: telemetryKeySchema,
    startTs: timeParam('startTs'),
    endTs: timeParam('endTs'),
    agg: z.enum(TELEMETRY_AGGREGATIONS, { message: `agg must be one of ${TELEMETRY_AGGREGATIONS.join(', ')}` }).default('none'),
    /** Bucket width in seconds for an aggregation; chosen from the range when omitted. */
    interval: z.coerce
      .number({ message: 'interval must be a number of seconds' })
      .int()
      .min(1)
      .max(31 * 86400)
      .optional(),
    limit: z.coerce.number({ message: 'limit must be a number' }).int().min(1).max(TELEMETRY_MAX_POINTS).default(TELEMETRY_MAX_POINTS),
  })
  .refine((q) => q.endTs > q.startTs, { message: 'endTs must be after startTs', path: ['endTs'] });
export type ChartQuery = z.infer<typeof chartQuerySchema>;

export const chartPointSchema = z.object({ ts: z.number(), value: z.union([z.number(), z.string(), z.null()]) });
export const chartResponseSchema = z.object({
  key: z.string(),
  agg: z.enum(TELEMETRY_AGGREGATIONS),
  /** Bucket width in seconds (aggregations only). */
  interval: z.number().nullable(),
  points: z.array(chartPointSchema),
  /** True when the answer stopped at the limit. */
  truncated: z.boolean(),
});
export type ChartResponse = z.infer<typeof chartResponseSchema>;

export const latestValueSchema = z.object({
  key: z.string(),
  ts: z.number(),
  value: z.union([z.number(), z.string(), z.boolean(), z.null()]),
});
export const latestResponseSchema = z.object({
  deviceId: z.number().int(),
  status: z.string(),
  lastActivityAt: z.string().nullable(),
  telemetry: z.array(latestValueSchema),
  attributes: z.array(latestValueSchema),
});
export type LatestResponse = z.infer<typeof latestResponseSchema>;

export const latestBatchQuerySchema = z.strictObject({
  ids: idList.refine((ids) => ids.length > 0, 'ids is required'),
  keys: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(telemetryKeySchema).max(50, 'keys accepts at most 50 values'))
    .optional(),
});
export const latestBatchResponseSchema = z.object({
  contents: z.array(
    z.object({
      deviceId: z.number().int(),
      values: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])),
      ts: z.number().nullable(),
    }),
  ),
});

/** Stands for the device's access token in the command lines: the token itself is read by its own copy action. */
export const ACCESS_TOKEN_PLACEHOLDER = '$ACCESS_TOKEN';

/** How a device connects: ready command lines with the token left out (device page). */
export const deviceConnectionSchema = z.object({
  deviceId: z.number().int(),
  mqtt: z.object({ host: z.string(), port: z.number().int(), topic: z.string(), attributesTopic: z.string(), external: z.boolean() }),
  http: z.object({ url: z.string() }),
  mosquittoPub: z.string(),
  curl: z.string(),
  /** Input of this device dropped by the rate limits (counted by the server process that answers). */
  rateLimited: deviceRateLimitedSchema,
});
export type DeviceConnection = z.infer<typeof deviceConnectionSchema>;

export const ingestStatsSchema = z.object({
  accepted: z.number(),
  stored: z.number(),
  rejected: z.record(z.string(), z.number()),
  /** Messages the database refused after they were accepted: logged and left out, the rest of their batch stored. */
  deadLettered: z.number(),
  buffered: z.number(),
  capacity: z.number(),
  flushes: z.number(),
  averageBatch: z.number().nullable(),
  averageFlushMs: z.number().nullable(),
  lastFlushMs: z.number().nullable(),
  mqttClients: z.number(),
});
export type IngestStats = z.infer<typeof ingestStatsSchema>;
