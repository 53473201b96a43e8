import { SERVER_MESSAGES } from '@sitewatch/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hmac, hmacKey, randomToken, safeEqual } from '../crypto.ts';
import { HttpError } from '../errors.ts';
import { secureTransport } from './secure-transport.ts';

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const CHECKED_MAX = 10_000;

/** What a token is bound to: the tenant of the request and its session (none before sign-in). */
export interface CsrfBinding {
  tenantId: number | null;
  sessionId: string | null;
}

const bindingOf = (request: FastifyRequest): CsrfBinding => ({
  tenantId: request.tenant?.id ?? null,
  sessionId: request.auth?.sessionId ?? null,
});

/**
 * Signed double-submit token: the cookie holds random.signature, the header must repeat it. The signature covers the
 * tenant and the session, so a token taken from another tenant's or another session's cookie is refused; a sign-in
 * and a sign-out give the browser a new one (as Django rotates its token at login).
 */
export function createCsrf(secretBytes: Uint8Array, secureCookies: boolean) {
  const secret = hmacKey(secretBytes);
  const sign = (nonce: string, binding: CsrfBinding) => hmac(secret, `${nonce}|${binding.tenantId ?? ''}|${binding.sessionId ?? ''}`);
  /** Tokens whose signature was checked, with what they were checked against: a browser repeats one all visit long. */
  const checked = new Set<string>();
  const isValid = (token: string | undefined, binding: CsrfBinding): token is string => {
    if (!token) return false;
    const key = `${token}|${binding.tenantId ?? ''}|${binding.sessionId ?? ''}`;
    if (checked.has(key)) return true;
    const [nonce, signature] = token.split('.');
    if (!(nonce && signature && safeEqual(sign(nonce, binding), signature))) return false;
    if (checked.size >= CHECKED_MAX) checked.clear();
    checked.add(key);
    return true;
  };
  const issue = (request: FastifyRequest, reply: FastifyReply, binding: CsrfBinding) => {
    const nonce = randomToken(18);
    const token = `${nonce}.${sign(nonce, binding)}`;
    reply.setCookie(CSRF_COOKIE, token, { path: '/', sameSite: 'lax', secure: secureTransport(request, secureCookies), httpOnly: false });
    return token;
  };

  return {
    /** Gives the browser a token when it has none or one bound to another tenant or session; returns the token in force. */
    ensureCookie(request: FastifyRequest, reply: FastifyReply): string {
      const binding = bindingOf(request);
      const current = request.cookies[CSRF_COOKIE];
      if (isValid(current, binding)) return current;
      return issue(request, reply, binding);
    },
    /** A new token for the session that this answer starts (a sign-in) or ends (`sessionId` null: a sign-out). */
    rotate(request: FastifyRequest, reply: FastifyReply, sessionId: string | null): string {
      return issue(request, reply, { tenantId: request.tenant?.id ?? null, sessionId });
    },
    check(request: FastifyRequest) {
      if (SAFE.has(request.method)) return;
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!isValid(cookie, bindingOf(request)) || typeof header !== 'string' || !safeEqual(cookie, header)) {
        throw new HttpError(403, SERVER_MESSAGES.csrfFailed, 'csrf_failed');
      }
    },
  };
}
export type Csrf = ReturnType<typeof createCsrf>;
