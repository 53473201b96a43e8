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

/** Writes one audit row; an audit failure is logged, never surfaced to the caller. */
export async function writeAudit(db: Db, request: FastifyRequest, entry: AuditEntry): Promise<void> {
  try {
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
