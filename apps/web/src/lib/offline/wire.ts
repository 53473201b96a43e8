import type { OutboxAction } from './db.ts';

/** How an action goes over the wire: its key (a repeat changes nothing twice) and the time it was done. */
export const ACTION_TIME_HEADER = 'X-Action-Time';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export type Sendable = Pick<OutboxAction, 'method' | 'path' | 'body' | 'files' | 'key' | 'performedAt' | 'uploadPath'>;
