import type { FastifyRequest } from 'fastify';
import type { Db } from './db.ts';

export interface AuditEntry {
  tenantId: number;
  userId?: number | null;
  username?: string | null;
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  detail?: Record<string, unknown>;
}

/**
 * Writes one audit row and its user activity log entry (with the object and before/after values the detail names).
 * Given a transaction, both are written with the change they record. An audit failure is logged, never surfaced.
 */
export async function writeAudit(db: Db, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  try {
    const detail = entry.detail ?? {};
    const { object, before, after, ...rest } = detail as {
      object?: { type: string; id: number | string };
      before?: Record<string, unknown>;
      after?: Record<string, unknown>;
    };
    await db
      .insertInto('user_activity_logs')
      .values({
        tenant_id: entry.tenantId,
        actor_id: entry.userId ?? null,
        actor_name: entry.username ?? null,
        action: entry.action,
        outcome: entry.outcome,
        object_type: object?.type ?? null,
        object_id: object ? String(object.id) : null,
        ip: request.ip,
        user_agent: request.headers['user-agent']?.slice(0, 300) ?? null,
        before: before ? JSON.stringify(before) : null,
        after: after ? JSON.stringify(after) : null,
        detail: JSON.stringify(rest),
      })
      .execute();
    await db
      .insertInto('audit_log')
      .values({
        tenant_id: entry.tenantId,
        user_id: entry.userId ?? null,
        username: entry.username ?? null,
        action: entry.action,
        outcome: entry.outcome,
        ip: request.ip,
        user_agent: request.headers['user-agent']?.slice(0, 300) ?? null,
        detail: JSON.stringify(entry.detail ?? {}),
      })
      .execute();
  } catch (error) {
    request.log.error({ err: error }, 'audit write failed');
  }
}
