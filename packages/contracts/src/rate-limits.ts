import { z } from 'zod';

/**
 * Rate limits of device input (telemetry, attributes, command replies; MQTT and HTTP), written as ThingsBoard
 * writes them: comma-separated `capacity:seconds` pairs, each "at most capacity within any window of that many
 * seconds", e.g. `100:1,3000:60`. An empty text is no limit. Per device and per tenant, on messages and on bytes.
 */
export const RATE_LIMIT_KEYS = ['deviceMessages', 'deviceBytes', 'tenantMessages', 'tenantBytes'] as const;
export type RateLimitKey = (typeof RATE_LIMIT_KEYS)[number];
export type DeviceRateLimits = Record<RateLimitKey, string>;

export const RATE_LIMIT_LABELS: Record<RateLimitKey, string> = {
  deviceMessages: 'Messages per device',
  deviceBytes: 'Bytes per device',
  tenantMessages: 'Messages per tenant',
  tenantBytes: 'Bytes per tenant',
};

export const RATE_LIMIT_TEXT_MAX = 100;
/** At most this many windows in one limit. */
export const RATE_LIMIT_WINDOWS_MAX = 4;

/** `100:1,3000:60` → [{ capacity: 100, seconds: 1 }, { capacity: 3000, seconds: 60 }]; null when malformed. */
export function parseRateLimit(text: string): Array<{ capacity: number; seconds: number }> | null {
  if (text.trim() === '') return [];
  const windows = text.split(',').map((pair) => {
    const m = /^\s*(\d{1,10}):(\d{1,6})\s*$/.exec(pair);
    return m ? { capacity: Number(m[1]), seconds: Number(m[2]) } : null;
  });
  if (windows.length > RATE_LIMIT_WINDOWS_MAX) return null;
  if (windows.some((w) => !w || w.capacity < 1 || w.capacity > 2_000_000_000 || w.seconds < 1 || w.seconds > 86_400)) return null;
  return windows as Array<{ capacity: number; seconds: number }>;
}

const rateLimitText = z
  .string()
  .max(RATE_LIMIT_TEXT_MAX, `Please use at most ${RATE_LIMIT_TEXT_MAX} characters`)
  .refine(
    (text) => parseRateLimit(text) !== null,
    `Write limits as capacity:seconds pairs separated by commas, e.g. 100:1,3000:60 (at most ${RATE_LIMIT_WINDOWS_MAX}, seconds 1–86400), or leave empty for no limit`,
  );

/** A tenant's own limits: a key left out (or null) takes the server's default. */
export const deviceRateLimitsUpdateSchema = z.strictObject(
  Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, rateLimitText.nullable().optional()])) as Record<
    RateLimitKey,
    z.ZodOptional<z.ZodNullable<typeof rateLimitText>>
  >,
);
export type DeviceRateLimitsUpdate = z.infer<typeof deviceRateLimitsUpdateSchema>;

const limitsObject = z.object(Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, z.string()])) as Record<RateLimitKey, z.ZodString>);
export const deviceRateLimitsSchema = z.object({
  /** What applies to the tenant now. */
  limits: limitsObject,
  /** The server's defaults (a key the tenant did not set takes these). */
  defaults: limitsObject,
  /** The keys the tenant set itself. */
  custom: z.array(z.enum(RATE_LIMIT_KEYS)),
});
export type DeviceRateLimitsAnswer = z.infer<typeof deviceRateLimitsSchema>;

/** A device's input dropped by the rate limits since this server process started (shown on the device page). */
export const deviceRateLimitedSchema = z.object({
  dropped: z.number().int(),
  lastAt: z.string().nullable(),
  /** Connections closed because the device kept on flooding. */
  disconnects: z.number().int(),
});
