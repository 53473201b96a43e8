import { z } from 'zod';

/** Body of every error answer: `detail` is the text the web app may show. */
export const errorSchema = z.object({
  detail: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof errorSchema>;

export const idParamSchema = z.object({ id: z.coerce.number().int().positive() });
export const uuidParamSchema = z.object({ id: z.uuid() });

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(20),
});

export const listOf = <T extends z.ZodType>(item: T) => z.object({ contents: z.array(item), totalCount: z.number().int() });

export const okSchema = z.object({ success: z.boolean() });
