import { z } from 'zod';

/** Body of every error answer: `detail` is the text the web app may show. */
export const errorSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;

/** Largest value of a PostgreSQL `integer` column; ids of `bigint` columns are held to it too (never reached). */
export const INT4_MAX = 2_147_483_647;
/** A row id in a JSON body: 1 to the column's range, so the database never sees a value it cannot take. */
export const idSchema = z.number().int().min(1).max(INT4_MAX);
/** A row id in a path or query string. */
export const idCoerced = z.coerce.number().int().min(1).max(INT4_MAX);
export const idParamSchema = z.object({ id: idCoerced });

/** PostgreSQL text cannot hold NUL, so no input may carry one (checked for every route by the server's validator). */
export const NUL_MESSAGE = 'NUL characters are not allowed';
/**
 * Half of a UTF-16 surrogate pair with no other half (`"\ud800"` in JSON) is not a character: PostgreSQL's json
 * refuses it and text would keep U+FFFD instead, so no input may carry one either.
 */
export const LONE_SURROGATE_MESSAGE = 'contains an unpaired surrogate (not a valid character)';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);

export interface UnsafeText {
  /** Where the string (or key) is, as a path. */
  path: string[];
  kind: 'nul' | 'lone-surrogate';
}

/** The first string (or key) in `value` that holds a NUL or an unpaired surrogate, or null when none does. */
export function findUnsafeText(value: unknown, path: string[] = [], depth = 0): UnsafeText | null {
  const check = (text: string, at: string[]): UnsafeText | null =>
    text.includes('\u0000') ? { path: at, kind: 'nul' } : hasLoneSurrogate(text) ? { path: at, kind: 'lone-surrogate' } : null;
  if (typeof value === 'string') return check(value, path);
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [key, item] of Object.entries(value)) {
    const inKey = check(key, [...path, key]);
    if (inKey) return inKey;
    const found = findUnsafeText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

export const uuidParamSchema = z.object({ id: z.uuid() });

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(INT4_MAX).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(20),
});

export const listOf = <T extends z.ZodType>(item: T) => z.object({ contents: z.array(item), totalCount: z.number().int() });

export const okSchema = z.object({ success: z.boolean() });
