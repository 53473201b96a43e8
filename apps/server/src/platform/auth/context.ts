import type { PermissionCodename } from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { forbidden, unauthorized } from '../errors.ts';
import type { Tenant } from '../tenancy.ts';

export interface AuthContext {
  userId: number;
  tenantId: number;
  sessionId: string;
  loginRole: string;
  /** Generation of the session's refresh token in force. */
  refreshGen: number;
  roles: string[];
  permissions: ReadonlySet<string>;
}

/** Per-route options read by the tenancy, auth and CSRF hooks. */
export interface RouteAccess {
  /** No tenant needed (health, docs, static files). Implies public. */
  tenantless?: boolean;
  /** Reachable without a session; a session is still read when present. */
  public?: boolean;
  /** Unsafe methods need the CSRF header unless this is false (device ingest with its own token). */
  csrf?: boolean;
  /**
   * The answer gives the browser a CSRF cookie when it has none or an invalid one (`GET /api/auth/csrf/`, which the
   * web app calls before its first unsafe request). Other answers set no cookie: a Set-Cookie on every cookieless
   * call (API clients, public reads) cost more than the rest of a small request.
   */
  issuesCsrf?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant: Tenant | null;
    auth: AuthContext | null;
    /** The CSRF token in force, on routes that issue it (`RouteAccess.issuesCsrf`). */
    csrfToken: string | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

export function requireTenant(request: FastifyRequest): Tenant {
  if (!request.tenant) throw unauthorized();
  return request.tenant;
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

export const hasPermission = (auth: AuthContext, codename: PermissionCodename) => auth.permissions.has(codename);
export const hasRole = (auth: AuthContext, ...roles: string[]) => auth.roles.some((r) => roles.includes(r));

const ACCESS_GUARD = Symbol('access guard');
type Guard = ((request: FastifyRequest) => Promise<void>) & { [ACCESS_GUARD]?: true };
const guard = (check: (request: FastifyRequest) => Promise<void>): Guard => Object.assign(check, { [ACCESS_GUARD]: true as const });
/**
 * Marks a route's own check of the caller (roles, permissions, nothing of the body) as a guard, so it runs before
 * validation like `roleGuard` and `permissionGuard`.
 */
export const accessGuard = guard;
/** Whether a route hook is a role or permission guard: it needs only the caller, never the body. */
export const isAccessGuard = (hook: unknown): boolean => typeof hook === 'function' && (hook as Guard)[ACCESS_GUARD] === true;

/**
 * A route's `preHandler` that lets only callers with one of the roles through. Guards run before the body is
 * validated (see `runGuardsBeforeValidation`): a caller who may not act at all hears 403, not the body's faults.
 */
export const roleGuard = (...roles: string[]) =>
  guard(async (request) => {
    if (!hasRole(requireAuth(request), ...roles)) throw forbidden();
  });

/** A preHandler that lets only callers whose first group grants the permission through (before validation too). */
export const permissionGuard = (codename: PermissionCodename) =>
  guard(async (request) => {
    if (!hasPermission(requireAuth(request), codename)) throw forbidden();
  });

const OBJECT_GUARD = Symbol('object guard');
type ObjectGuard = ((request: FastifyRequest) => Promise<void>) & { [OBJECT_GUARD]?: true };
/**
 * A route's check of the caller against the object its path names (a ticket, a dashboard, an event...): it loads the
 * object and refuses (404 when the caller may not see it, 403 when they may not act on it) before the body is
 * validated, after the caller's own guards. Validation has not run yet, so the guard reads the path with the route's
 * params schema itself; a path that does not parse is left to validation, whose 400 names the path, not the body.
 */
export const objectGuard = <P>(params: ZodType<P>, check: (request: FastifyRequest, params: P, auth: AuthContext) => Promise<unknown>) =>
  Object.assign(
    async (request: FastifyRequest) => {
      const auth = requireAuth(request);
      const parsed = params.safeParse(request.params);
      if (parsed.success) await check(request, parsed.data, auth);
    },
    { [OBJECT_GUARD]: true as const },
  ) as ObjectGuard;
const isObjectGuard = (hook: unknown): boolean => typeof hook === 'function' && (hook as ObjectGuard)[OBJECT_GUARD] === true;

const hooksOf = (hooks: unknown): unknown[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Moves a route's role and permission guards, then its object guards, from `preHandler` to `preValidation` (an
 * `onRoute` step): checks that a user may act come before body validation, so a user who may not act gets 403 (or 404
 * for an object they may not see) before any 400 with field details.
 */
export function runGuardsBeforeValidation(route: { preHandler?: unknown; preValidation?: unknown }): {
  guards: Guard[];
  objectGuards: ObjectGuard[];
} {
  const handlers = hooksOf(route.preHandler);
  const guards = handlers.filter(isAccessGuard) as Guard[];
  const objectGuards = handlers.filter(isObjectGuard) as ObjectGuard[];
  if (guards.length + objectGuards.length === 0) return { guards, objectGuards };
  const rest = handlers.filter((h) => !isAccessGuard(h) && !isObjectGuard(h));
  route.preValidation = [...guards, ...objectGuards, ...hooksOf(route.preValidation)];
  route.preHandler = rest.length ? rest : undefined;
  return { guards, objectGuards };
}
