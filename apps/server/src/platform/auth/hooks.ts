import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../errors.ts';
import type { Tenant } from '../tenancy.ts';
import { hostnameOf } from '../tenancy.ts';
import type { AuthContext } from './context.ts';
import type { Csrf } from './csrf.ts';

export const SESSION_COOKIE = 'sw_session';

export interface AccessHookDeps {
  resolveTenant(host: string): Promise<Tenant>;
  authenticate(tenant: Tenant, bearer: string | undefined, cookie: string | undefined): Promise<AuthContext | null>;
  csrf: Csrf;
}

/**
 * Every route is tenant-scoped, signed-in only and CSRF-checked unless its `config.access` says otherwise,
 * so a new route is safe by default. Order: tenant (421), session (401), CSRF (403, cookie sessions only), then
 * validation.
 */
export function registerAccessHooks(app: FastifyInstance, deps: AccessHookDeps) {
  app.decorateRequest('tenant', null);
  app.decorateRequest('auth', null);
  app.decorateRequest('csrfToken', null);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url) return; // not-found handler: static files and the web app
    const access = request.routeOptions.config.access ?? {};
    if (access.tenantless) return;
    request.tenant = await deps.resolveTenant(hostnameOf(request));
    const header = request.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    request.auth = await deps.authenticate(request.tenant, bearer, request.cookies[SESSION_COOKIE]);
    if (!request.auth && !access.public) throw unauthorized();
    // The token is bound to the tenant and the session, so it is issued once both are known.
    if (access.issuesCsrf) request.csrfToken = deps.csrf.ensureCookie(request, reply);
    // CSRF protects cookie sessions: a request signed in by its bearer token alone, with no session cookie, cannot be
    // forged by a browser (as Django REST framework exempts token authentication).
    const bearerOnly = bearer !== undefined && request.auth !== null && request.cookies[SESSION_COOKIE] === undefined;
    if (access.csrf !== false && !bearerOnly) deps.csrf.check(request);
  });
}
