import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Runs helmet once against a stand-in response and returns the headers it set. The values never depend on the
 * request, so computing them per request (as the Fastify plugin does, options parsing and CSP included) is waste.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: helmet only calls setHeader/removeHeader on these stand-ins
  helmet(options)({ method: 'GET', headers: {} } as any, response as any, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/** What a hashed script, style or image needs: the policy headers only act on documents and workers. */
const ASSET_HEADERS = ['x-content-type-options', 'cross-origin-resource-policy'];
/** Headers that act on any answer, a document or not. */
const COMMON_HEADERS = [...ASSET_HEADERS, 'referrer-policy', 'strict-transport-security'];
/**
 * The policy of a JSON answer: it is data, never a page, so it may load nothing and sit in no frame (the
 * document policy's directives and the other document headers do nothing for it).
 */
export const JSON_ANSWER_POLICY = "default-src 'none'; frame-ancestors 'none'";

const pick = (headers: Record<string, string>, names: (name: string) => boolean) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => names(name)));

/**
 * Sends the precomputed security headers with every response, each kind of answer with the ones that act on it:
 * - the web app's hashed files under /assets/: nosniff and the resource policy;
 * - JSON answers: those and the referrer policy, HSTS and a policy that allows nothing (about 500 bytes less than a
 *   page's headers on every API call);
 * - everything else (the web app's pages, the API docs, files): the whole set.
 * A route that set a header of its own (a file's sandboxing policy) keeps it.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = securityHeaders(options);
  const assetHeaders = pick(headers, (name) => ASSET_HEADERS.includes(name));
  const commonHeaders = pick(headers, (name) => COMMON_HEADERS.includes(name));
  const documentHeaders = Object.entries(pick(headers, (name) => !COMMON_HEADERS.includes(name)));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/assets/') ? assetHeaders : commonHeaders);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/assets/')) return done(null, payload);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', JSON_ANSWER_POLICY);
    } else {
      for (const [name, value] of documentHeaders) if (!reply.hasHeader(name)) reply.header(name, value);
    }
    done(null, payload);
  });
}
