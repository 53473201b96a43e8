import { z } from 'zod';
import { INT4_MAX, idCoerced } from './common.ts';

/**
 * Building blocks for list queries in the Django-like style of SPEC 7 (`name__icontains`, `ids=1,2`, `orderBy=-name`).
 * Every list query is a strict object: an unknown filter is a 400 that names it.
 */

/** An array schema over string inputs (query values are strings before they are coerced). */
export const arrayOf = <T extends z.ZodType>(item: T) => z.array(item) as unknown as z.ZodArray<z.ZodType<z.output<T>, string>>;

/** A boolean query parameter: true/false (1/0 accepted). */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0'], { message: 'Use true or false' })
  .transform((v) => v === 'true' || v === '1');

/** A list given as `a,b,c` or as repeated parameters. */
export const csvList = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(','))
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(arrayOf(item).max(max, `${what} accepts at most ${max} values per request`));

/** Ids in batches of at most 500 (SPEC 9: ids batch 500). */
export const ID_BATCH = 500;
export const idList = csvList(z.coerce.number({ message: 'ids must be numbers' }).int().min(1).max(INT4_MAX), ID_BATCH, 'ids');

/** Repeated parameter kept in order (address levels). */
export const repeated = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(arrayOf(item).max(max, `${what} accepts at most ${max} values`));

/** `orderBy=field` or `orderBy=-field` over an allowed set of fields. */
export const orderBy = <const F extends string>(fields: readonly F[]) =>
  z.enum([...fields, ...fields.map((f) => `-${f}` as `-${F}`)] as [F | `-${F}`, ...(F | `-${F}`)[]], {
    message: `orderBy must be one of ${fields.join(', ')} (prefix - for descending)`,
  });

/** A trimmed search text. */
export const searchText = z.string().trim().max(200);

export const pageParam = z.coerce.number({ message: 'page must be a number' }).int().min(1).default(1);
export const limitParam = (max: number, fallback: number) =>
  z.coerce.number({ message: 'limit must be a number' }).int().min(1).max(max, `limit must be at most ${max}`).default(fallback);

/** `assetId=12`, `assetId=!null` (any site) or `assetId=null` (no site: the inventory). */
export const nullableIdFilter = z.union([z.literal('!null'), z.literal('null'), idCoerced], {
  message: 'Use an id, null or !null',
});
