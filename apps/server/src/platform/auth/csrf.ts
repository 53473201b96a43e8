import { SERVER_MESSAGES } from '@sitewatch/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hmac, hmacKey, randomToken, safeEqual } from '../crypto.ts';
import { HttpError } from '../errors.ts';

export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const CHECKED_MAX = 10_000;

/** Signed double-submit token: the cookie holds random.signature, the header must repeat it. */
export function createCsrf(secretBytes: Uint8Array, secureCookies: boolean) {
  const secret = hmacKey(secretBytes);
  /** Tokens whose signature was checked: a browser sends the same one with every request of its visit. */
  const checked = new Set<string>();
  const isValid = (token: string | undefined): token is string => {
    if (!token) return false;
    if (checked.has(token)) return true;
    const [nonce, signature] = token.split('.');
    if (!(nonce && signature && safeEqual(hmac(secret, nonce), signature))) return false;
    if (checked.size >= CHECKED_MAX) checked.clear();
    checked.add(token);
    return true;
  };
  const issue = () => {
    const nonce = randomToken(18);
    return `${nonce}.${hmac(secret, nonce)}`;
  };

  return {
    /** Gives the browser a token when it has none; returns the token in force. */
    ensureCookie(request: FastifyRequest, reply: FastifyReply): string {
      const current = request.cookies[CSRF_COOKIE];
      if (isValid(current)) return current;
      const token = issue();
      reply.setCookie(CSRF_COOKIE, token, { path: '/', sameSite: 'lax', secure: secureCookies, httpOnly: false });
      return token;
    },
    check(request: FastifyRequest) {
      if (SAFE.has(request.method)) return;
      const cookie = request.cookies[CSRF_COOKIE];
      const header = request.headers[CSRF_HEADER];
      if (!isValid(cookie) || typeof header !== 'string' || !safeEqual(cookie, header)) {
        throw new HttpError(403, SERVER_MESSAGES.csrfFailed, 'csrf_failed');
      }
    },
  };
}
export type Csrf = ReturnType<typeof createCsrf>;
