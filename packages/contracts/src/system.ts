import { z } from 'zod';

/** GET /health: the process answers (no dependency is checked). */
export const healthResponseSchema = z.object({ status: z.string() });

/**
 * GET /ready: each dependency (database, broker, blobs) is 'ok', 'not used' by this process, or says what is
 * wrong; 503 names the failing ones in `status`.
 */
export const readyResponseSchema = z.object({ status: z.string(), checks: z.record(z.string(), z.string()) });
export type ReadyResponse = z.infer<typeof readyResponseSchema>;
