import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.ts';

/**
 * `X-Action-Time` on a change: when the user did it at the site, which is later than its arrival when the phone's
 * outbox sends it after a stretch without a connection. It is kept beside the arrival time (history, comments,
 * activity log), never instead of it. A time far in the future, or older than the outbox keeps actions, is refused.
 */
export const ACTION_TIME_HEADER = 'x-action-time';
const MAX_AGE_MS = 30 * 24 * 3600_000;
const CLOCK_SKEW_MS = 5 * 60_000;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

export const ACTION_TIME_MESSAGES = {
  invalid: 'X-Action-Time must be a date and time with its time zone, e.g. 2026-03-01T09:12:00Z',
  future: 'X-Action-Time is in the future: check the phone’s clock',
  tooOld: 'X-Action-Time is more than 30 days ago: the action is too old to be recorded',
};

declare module 'fastify' {
  interface FastifyRequest {
    actionTime: Date | null;
  }
}

export function parseActionTime(value: string, now = Date.now()): Date {
  const at = ISO_WITH_ZONE.test(value) ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) throw badRequest(ACTION_TIME_MESSAGES.invalid, 'invalid_action_time');
  if (at.getTime() > now + CLOCK_SKEW_MS) throw badRequest(ACTION_TIME_MESSAGES.future, 'invalid_action_time');
  if (at.getTime() < now - MAX_AGE_MS) throw badRequest(ACTION_TIME_MESSAGES.tooOld, 'invalid_action_time');
  return at;
}

export function registerActionTime(app: FastifyInstance) {
  app.decorateRequest('actionTime', null);
  app.addHook('preHandler', async (request) => {
    const value = request.headers[ACTION_TIME_HEADER];
    if (value === undefined || request.method === 'GET' || request.method === 'HEAD') return;
    if (typeof value !== 'string') throw badRequest(ACTION_TIME_MESSAGES.invalid, 'invalid_action_time');
    request.actionTime = parseActionTime(value);
  });
}
