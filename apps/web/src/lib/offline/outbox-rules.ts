import { isHttpError } from '../http.ts';
import type { OutboxAction } from './db.ts';

/** What becomes of an action whose send failed: tried again later, or kept for the user with the server's reason. */
export function decide(error: unknown): { next: 'retry' } | { next: 'attention'; reason: string } {
  if (!isHttpError(error)) return { next: 'retry' };
  const code = (error.data as { code?: string } | null)?.code;
  // No connection, the server failing or busy, the session ended (sent after the next sign-in), the first send still running.
  if (error.status === 0 || error.status >= 500 || error.status === 401 || error.status === 429) return { next: 'retry' };
  if (code === 'idempotency_in_progress') return { next: 'retry' };
  return { next: 'attention', reason: error.detail ?? error.message ?? `Refused by the server (${error.status})` };
}

/**
 * Later changes of the same ticket were made on the version this one was predicted to produce: when the server's
 * answer has another version (something else changed the ticket too), they move by the same step.
 */
export function rebaseVersions(sent: OutboxAction, answer: unknown, later: OutboxAction[]): OutboxAction[] {
  if (sent.kind !== 'ticket.update') return [];
  const sentVersion = sent.body.version;
  const version = (answer as { version?: unknown } | null)?.version;
  if (typeof sentVersion !== 'number' || typeof version !== 'number') return [];
  const step = version - (sentVersion + 1);
  if (step === 0) return [];
  return later
    .filter((r) => r.kind === 'ticket.update' && r.subject === sent.subject && r.state === 'waiting' && typeof r.body.version === 'number')
    .map((r) => ({ ...r, body: { ...r.body, version: (r.body.version as number) + step } }));
}
