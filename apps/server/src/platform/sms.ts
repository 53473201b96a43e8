import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db.ts';

/** Where one-time codes go. The built-in sender keeps them in an outbox that sysadmins can read. */
export interface SmsSender {
  send(tenantId: number, to: string, body: string): Promise<void>;
}

export function createOutboxSmsSender(db: Db, log: FastifyBaseLogger): SmsSender {
  return {
    async send(tenantId, to, body) {
      await db.insertInto('sms_outbox').values({ tenant_id: tenantId, to, body }).execute();
      log.info({ tenantId, to }, `SMS to ${to}: ${body}`);
    },
  };
}
