/**
 * A bounded, seeded generator of HTTP cases from the OpenAPI document: one plausible request per route, then the
 * same request with one input at a time replaced by what attackers send (ids past the column range, NUL, unpaired
 * UTF-16 surrogates, huge numeric strings, huge strings, wrong types). Deterministic for a given seed.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

export interface FuzzCase {
  method: string;
  url: string;
  payload?: unknown;
  /** What was mutated, for the failure report. */
  label: string;
}

/** mulberry32: small, fast, good enough to pick cases reproducibly. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);

/** A value the schema accepts (as far as a simple reading of it goes). */
export function sample(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return undefined;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return sample(variants.find((v) => v.type !== 'null') ?? variants[0], depth + 1);
  if (schema.allOf) return sample(schema.allOf[0], depth + 1);
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (!schema.required?.includes(key) && depth > 0) continue;
        const v = sample(prop, depth + 1);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'array':
      return schema.minItems ? Array.from({ length: schema.minItems }, () => sample(schema.items, depth + 1)) : [];
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      return Math.max(min, Math.min(1, schema.maximum ?? 1));
    }
    case 'boolean':
      return false;
    case 'string':
      return sampleString(schema);
    default:
      return undefined;
  }
}

function sampleString(schema: JsonSchema): string {
  switch (schema.format) {
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    case 'email':
      return 'fuzz@example.com';
    case 'date-time':
      return '2026-01-01T00:00:00.000Z';
    case 'date':
      return '2026-01-01';
    case 'uri':
      return 'https://example.com/';
  }
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

/** What attackers put where a value of this kind is expected. */
const HOSTILE_NUMBERS: unknown[] = [
  2147483648,
  2 ** 53 - 1,
  1e23,
  -1e23,
  -1,
  0,
  1.5,
  '1e+23',
  '\u0000',
  'x'.repeat(100_000),
  [],
  {},
  true,
  null,
];
const HOSTILE_STRINGS: unknown[] = [
  '\u0000',
  'a\u0000b',
  'x\ud800',
  '\udc00x',
  'x'.repeat(100_000),
  '9'.repeat(400),
  '1e+23',
  2147483648,
  [],
  {},
  true,
  null,
];
const HOSTILE_OTHER: unknown[] = ['\u0000', 'x\ud800', 2147483648, 1e23, 'x'.repeat(100_000), [], {}, null, true];
/** Raw (already encoded) path and query texts. */
export const HOSTILE_RAW = [
  '2147483648',
  '9007199254740993',
  '99999999999999999999',
  '1e%2B23',
  '-1',
  '0',
  '%00',
  'a%00b',
  'abc',
  '9'.repeat(400),
];

export const hostileFor = (schema: JsonSchema | undefined) => {
  const t = schema ? typeOf(schema) : undefined;
  return t === 'integer' || t === 'number' ? HOSTILE_NUMBERS : t === 'string' ? HOSTILE_STRINGS : HOSTILE_OTHER;
};

/** Every leaf of a sampled body with the schema that produced it, to three levels deep. */
export function leaves(schema: JsonSchema | undefined, path: string[] = [], depth = 0): Array<{ path: string[]; schema: JsonSchema }> {
  if (!schema || depth > 3) return [];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const v = variants.find((x) => x.type !== 'null');
    return v ? leaves(v, path, depth) : [];
  }
  const t = typeOf(schema);
  if (t === 'object' && schema.properties) {
    const out: Array<{ path: string[]; schema: JsonSchema }> = path.length ? [{ path, schema }] : [];
    for (const [key, prop] of Object.entries(schema.properties)) out.push(...leaves(prop, [...path, key], depth + 1));
    return out;
  }
  if (t === 'array' && schema.items) return [{ path, schema }, ...leaves(schema.items, [...path, '0'], depth + 1)];
  return [{ path, schema }];
}

export function withValue(base: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(base) || /^\d+$/.test(head)) {
    const arr = Array.isArray(base) ? [...base] : [];
    arr[Number(head)] = withValue(arr[Number(head)], rest, value);
    return arr;
  }
  const obj = base && typeof base === 'object' ? { ...(base as Record<string, unknown>) } : {};
  obj[head] = withValue(obj[head], rest, value);
  return obj;
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** An operation of the OpenAPI document, as far as the fuzzer reads it. */
export interface Operation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/**
 * The cases for one route of the OpenAPI document: a plausible call, then hostile values in each path and query
 * parameter and body leaf, shuffled and cut to `perRoute` cases in all.
 */
export function casesFor(method: string, path: string, op: Operation, random: () => number, perRoute: number): FuzzCase[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const pathValues = Object.fromEntries(pathParams.map((p) => [p.name, encodeURIComponent(String(sample(p.schema) ?? '1'))]));
  const queryValues = Object.fromEntries(
    queryParams.filter((p) => p.required).map((p) => [p.name, encodeURIComponent(String(sample(p.schema) ?? '1'))]),
  );
  const body = bodySchema ? (sample(bodySchema) ?? {}) : undefined;
  const build = (
    label: string,
    pathOver: Record<string, string> = {},
    queryOver: Record<string, string> = {},
    payload: unknown = body,
  ): FuzzCase => {
    const values = { ...pathValues, ...pathOver };
    const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? '1');
    const query = Object.entries({ ...queryValues, ...queryOver })
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    return { method, url: query ? `${url}?${query}` : url, payload, label };
  };
  const variants: FuzzCase[] = [];
  for (const p of pathParams) for (const raw of HOSTILE_RAW) variants.push(build(`path ${p.name}=${raw.slice(0, 20)}`, { [p.name]: raw }));
  for (const p of queryParams)
    for (const raw of HOSTILE_RAW) variants.push(build(`query ${p.name}=${raw.slice(0, 20)}`, {}, { [p.name]: raw }));
  if (bodySchema) {
    for (const leaf of leaves(bodySchema)) {
      for (const value of hostileFor(leaf.schema)) {
        const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 12)) : JSON.stringify(value);
        variants.push(build(`body ${leaf.path.join('.')}=${shown}`, {}, {}, withValue(body, leaf.path, value)));
      }
    }
    for (const whole of [[], 'x', 7]) variants.push(build(`body=${JSON.stringify(whole)}`, {}, {}, whole as never));
  }
  return [build('plausible'), ...shuffle(variants, random).slice(0, perRoute - 1)];
}
