import { type IngestRejectReason, TELEMETRY_LIMITS, type TelemetryValue } from '@sitewatch/contracts';

/** One reading of one key. */
export interface Reading {
  key: string;
  ts: number;
  value: TelemetryValue;
}

export type ParseResult = { ok: true; readings: Reading[] } | { ok: false; reason: IngestRejectReason; message: string };

const refuse = (reason: IngestRejectReason, message: string): ParseResult => ({ ok: false, reason, message });

/** Value types a device's template declares per key; a number key refuses non-numeric values. */
export type KeyTypes = ReadonlyMap<string, 'number' | 'boolean' | 'string'> | undefined;

function coerce(key: string, raw: unknown, types: KeyTypes): TelemetryValue | { error: IngestRejectReason; message: string } {
  const expected = types?.get(key);
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return { error: 'non_numeric', message: `${key}: not a finite number` };
    return raw;
  }
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') {
    if (raw.length > TELEMETRY_LIMITS.maxStringValueLength) return { error: 'too_large', message: `${key}: value too long` };
    if (raw.includes('\u0000')) return { error: 'invalid_payload', message: `${key}: NUL characters are not allowed` };
    if (expected === 'number') {
      const n = raw.trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(n)) return { error: 'non_numeric', message: `${key}: a number is expected` };
      return n;
    }
    return raw;
  }
  return { error: 'invalid_payload', message: `${key}: values must be numbers, strings or booleans` };
}

function readValues(values: unknown, ts: number, types: KeyTypes, out: Reading[]): ParseResult | null {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return refuse('invalid_payload', 'values must be an object');
  const record = values as Record<string, unknown>;
  // for…in over a parsed JSON object visits its own keys in the order of Object.entries, without an array per key
  for (const key in record) {
    const raw = record[key];
    if (key.length === 0 || key.length > TELEMETRY_LIMITS.maxKeyLength)
      return refuse('invalid_payload', `key length must be 1 to ${TELEMETRY_LIMITS.maxKeyLength}`);
    // PostgreSQL text cannot hold NUL: refused here, it would otherwise fail the whole batch it lands in
    if (key.includes('\u0000')) return refuse('invalid_payload', 'NUL characters are not allowed in keys');
    const value = coerce(key, raw, types);
    if (typeof value === 'object') return refuse(value.error, value.message);
    if (expectedMismatch(key, value, types)) return refuse('non_numeric', `${key}: a number is expected`);
    out.push({ key, ts, value });
    if (out.length > TELEMETRY_LIMITS.maxKeysPerMessage)
      return refuse('too_large', `at most ${TELEMETRY_LIMITS.maxKeysPerMessage} values per message`);
  }
  return null;
}

const expectedMismatch = (key: string, value: TelemetryValue, types: KeyTypes) => types?.get(key) === 'number' && typeof value !== 'number';

/**
 * Parses a telemetry payload in any of ThingsBoard's shapes: `{"k": v}`, `{"ts": ms, "values": {...}}`, or an
 * array of those. Refuses (never throws) malformed JSON, nested values, non-numeric values where the device's
 * template expects numbers, oversize payloads and timestamps outside the accepted window.
 */
export function parseTelemetry(payload: Buffer | string, now: number, types?: KeyTypes, oldestTs = 0): ParseResult {
  const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  if (size > TELEMETRY_LIMITS.maxPayloadBytes) return refuse('too_large', `payload over ${TELEMETRY_LIMITS.maxPayloadBytes} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return refuse('malformed_json', 'payload is not valid JSON');
  }
  const entries = Array.isArray(body) ? body : [body];
  if (entries.length === 0) return refuse('invalid_payload', 'no values');
  const readings: Reading[] = [];
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry))
      return refuse('invalid_payload', 'expected an object of key/values');
    const record = entry as Record<string, unknown>;
    if ('ts' in record && 'values' in record) {
      const ts = record.ts;
      if (typeof ts !== 'number' || !Number.isInteger(ts) || ts < oldestTs || ts > now + TELEMETRY_LIMITS.maxFutureMs)
        return refuse('bad_timestamp', 'ts must be epoch milliseconds within the retention window');
      const failure = readValues(record.values, ts, types, readings);
      if (failure) return failure;
    } else {
      const failure = readValues(record, now, types, readings);
      if (failure) return failure;
    }
  }
  if (readings.length === 0) return refuse('invalid_payload', 'no values');
  return { ok: true, readings };
}

/** Attributes: a flat object of scalar values, stored as they come. */
export function parseAttributes(payload: Buffer | string, now: number): ParseResult {
  const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  if (size > TELEMETRY_LIMITS.maxPayloadBytes) return refuse('too_large', `payload over ${TELEMETRY_LIMITS.maxPayloadBytes} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return refuse('malformed_json', 'payload is not valid JSON');
  }
  const readings: Reading[] = [];
  const failure = readValues(body, now, undefined, readings);
  if (failure) return failure;
  if (readings.length === 0) return refuse('invalid_payload', 'no values');
  return { ok: true, readings };
}
