/**
 * Request validation failures in words a user can read: "Stream URL is required" (SPEC 5: '{field} is required'),
 * never "body.streamUrl: Invalid input: expected string, received undefined". The machine path stays in `errors`
 * for clients that mark the field.
 */

/** One failed check as fastify-type-provider-zod reports it (keyword = the zod issue code). */
export interface ValidationItem {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const ACRONYMS = new Set([
  'id',
  'ids',
  'url',
  'rtsp',
  'ip',
  'mqtt',
  'csv',
  'awb',
  'sms',
  'otp',
  'uuid',
  'api',
  'dvr',
  'nvr',
  'ups',
  'json',
  'sla',
]);

/** `streamUrl` → "Stream URL", `location_id` → "Location ID", `assetIds` → "Asset IDs". */
export function humaniseField(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (words.length === 0) return 'Value';
  const text = words.map((w) => (ACRONYMS.has(w) ? (w === 'ids' ? 'IDs' : w.toUpperCase()) : w)).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const CONTEXT_NAMES: Record<string, string> = { body: 'Request', querystring: 'Query', params: 'Address', headers: 'Headers' };

/** The field a check is about: the last named segment of its path ("stops/0/cameraId" → "Camera ID"). */
function fieldOf(context: string, path: string): string {
  const named = path.split('/').filter((s) => s && !/^\d+$/.test(s));
  const last = named.at(-1);
  return last ? humaniseField(last) : (CONTEXT_NAMES[context] ?? 'Request');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of fields',
  date: 'a date',
};

const num = (v: unknown) => (typeof v === 'bigint' ? v.toString() : typeof v === 'number' ? String(v) : String(v ?? ''));

/** Zod's own wording ("Invalid input: ...", "Too small: ...") is not for users; a schema's custom message is. */
const isZodDefault = (message: string) => /^(Invalid|Too (small|big)|Unrecognized key|Expected|Required)\b/.test(message);

/** A schema's own message, with the raw key it may name ("streamUrl must be ...") written as a label. */
function customMessage(message: string, path: string): string {
  const key = path
    .split('/')
    .filter((s) => s && !/^\d+$/.test(s))
    .at(-1);
  // Only keys that read as code (camelCase, snake_case): a plain word such as "address" is already English.
  if (!key || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || !/[A-Z_]/.test(key)) return message;
  return message.replace(new RegExp(`\\b${key}\\b`, 'g'), humaniseField(key));
}

export function humanMessage(context: string, item: ValidationItem): string {
  const field = fieldOf(context, item.instancePath ?? '');
  const p = item.params ?? {};
  const message = item.message ?? '';
  // A message the schema's author wrote for people ('Please use maximum 250 characters') is kept.
  if (message && !isZodDefault(message)) {
    const text = customMessage(message, item.instancePath ?? '');
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  const missing = /received (undefined|null)\b/i.test(message) || ('input' in p && (p.input === undefined || p.input === null));
  switch (item.keyword) {
    case 'invalid_type':
      if (missing) return `${field} is required`;
      return `${field} must be ${TYPE_WORDS[String(p.expected)] ?? 'valid'}`;
    case 'too_small': {
      const min = Number(p.minimum);
      if (p.origin === 'string') return min <= 1 ? `${field} is required` : `${field} must be at least ${num(p.minimum)} characters`;
      if (p.origin === 'array' || p.origin === 'set')
        return min <= 1 ? `${field} needs at least one item` : `${field} needs at least ${num(p.minimum)} items`;
      return `${field} cannot be less than ${num(p.minimum)}`;
    }
    case 'too_big':
      if (p.origin === 'string') return `${field}: please use maximum ${num(p.maximum)} characters`;
      if (p.origin === 'array' || p.origin === 'set') return `${field} takes at most ${num(p.maximum)} items`;
      return `${field} cannot be greater than ${num(p.maximum)}`;
    case 'invalid_format':
      return `${field} is not a valid ${p.format === 'email' ? 'e-mail address' : p.format === 'url' ? 'address' : String(p.format ?? 'value').replace(/_/g, ' ')}`;
    case 'invalid_value':
    case 'invalid_enum_value': {
      const values = Array.isArray(p.values) ? p.values.map(String) : [];
      return values.length && values.length <= 8 ? `${field} must be one of: ${values.join(', ')}` : `${field} is not an allowed value`;
    }
    case 'unrecognized_keys': {
      const keys = Array.isArray(p.keys) ? p.keys.map((k) => humaniseField(String(k))) : [];
      return keys.length
        ? `${keys.join(', ')} ${keys.length === 1 ? 'is not a known field' : 'are not known fields'}`
        : 'Unknown fields were sent';
    }
    default:
      return `${field} is not valid`;
  }
}

/** The response body of a failed validation: the first message as `detail`, every failure in `errors`. */
export function validationBody(context: string, items: readonly ValidationItem[], fallback: string) {
  const errors = items.map((v) => ({
    path: [
      context,
      ...String(v.instancePath ?? '')
        .split('/')
        .filter(Boolean),
    ].join('.'),
    field: fieldOf(context, v.instancePath ?? ''),
    message: humanMessage(context, v),
  }));
  return { detail: errors[0]?.message ?? fallback, code: 'validation_error', errors };
}

/** The same words for a zod issue a service met while parsing something itself (export parameters, CSV rows). */
export function issueMessage(issue: { code: string; path: PropertyKey[]; message: string }, context = 'body'): string {
  const { code, path, message, ...params } = issue;
  return humanMessage(context, { keyword: code, instancePath: `/${path.map(String).join('/')}`, message, params });
}
