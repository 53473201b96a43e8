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

/** Where in `value` a string (or key) holds a NUL, as a path, or null when none does. */
export function findNul(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const found = findNul(item, [...path, key], depth + 1);
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
