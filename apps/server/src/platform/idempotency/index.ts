import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import { badRequest, conflict, HttpError } from '../errors.ts';
import { registerActionTime } from './action-time.ts';

export { ACTION_TIME_HEADER, ACTION_TIME_MESSAGES } from './action-time.ts';
export type { IdempotencyTables } from './tables.ts';

/**
 * `Idempotency-Key` on any change a signed-in user sends (the phone's outbox sends one with each queued action):
 * the first request with a key runs and its answer is kept; a repeat of the same request with the same key is
 * answered with that answer and changes nothing; the same key on a different request is refused. Keys are the
 * user's own and live two days.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,255}$/;
const KEEP_HOURS = 48;
const PURGE_EVERY_MS = 10 * 60_000;
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: 'Idempotency-Key must be 8 to 255 letters, digits or the characters . _ : -',
  reused: 'This Idempotency-Key was already used for a different request.',
  inProgress: 'This request is still being processed: try again in a moment.',
};

interface Claim {
  tenantId: number;
  userId: number;
  key: string;
  body: unknown;
  captured: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: Claim | null;
  }
}

function requestHash(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

export function registerIdempotency(app: FastifyInstance, db: Db) {
  let purgedAt = 0;
  const purge = () => {
    purgedAt = Date.now();
    void sql`delete from idempotency_keys where created_at < now() - make_interval(hours => ${KEEP_HOURS})`
      .execute(db)
      .catch((error) => app.log.warn({ err: error }, 'old idempotency keys could not be removed'));
  };

  app.decorateRequest('idempotency', null);
  // Before the key is claimed: a refused action time leaves the key free for the corrected request.
  registerActionTime(app);

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || !UNSAFE.has(request.method) || !request.auth) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) throw badRequest(IDEMPOTENCY_MESSAGES.invalidKey, 'invalid_idempotency_key');
    const { tenantId, userId } = request.auth;
    const hash = requestHash(request);
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ tenant_id: tenantId, user_id: userId, key, request_hash: hash, status: null, body: null })
      .onConflict((oc) => oc.doNothing())
      .returning('key')
      .executeTakeFirst();
    if (claimed) {
      request.idempotency = { tenantId, userId, key, body: undefined, captured: false };
      if (Date.now() - purgedAt > PURGE_EVERY_MS) purge();
      return;
    }
    const earlier = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status', 'body'])
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .executeTakeFirst();
    if (earlier && earlier.request_hash !== hash) throw new HttpError(422, IDEMPOTENCY_MESSAGES.reused, 'idempotency_key_reused');
    if (!earlier || earlier.status === null) throw conflict(IDEMPOTENCY_MESSAGES.inProgress, 'idempotency_in_progress');
    reply.header('idempotent-replayed', 'true').code(earlier.status);
    return reply.send(earlier.body ?? undefined);
  });

  // The answer's JSON before it is serialized and compressed: what a repeat is answered with.
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (request.idempotency) {
      request.idempotency.body = payload;
      request.idempotency.captured = true;
    }
    return payload;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    // A failure of the server is not an answer to keep: the repeat runs again.
    if (reply.statusCode >= 500) {
      await db
        .deleteFrom('idempotency_keys')
        .where('tenant_id', '=', claim.tenantId)
        .where('user_id', '=', claim.userId)
        .where('key', '=', claim.key)
        .execute();
      return payload;
    }
    await db
      .updateTable('idempotency_keys')
      .set({ status: reply.statusCode, body: claim.captured ? JSON.stringify(claim.body ?? null) : null })
      .where('tenant_id', '=', claim.tenantId)
      .where('user_id', '=', claim.userId)
      .where('key', '=', claim.key)
      .execute();
    return payload;
  });
}
