import type { FastifyRequest } from 'fastify';
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

export const hasPermission = (auth: AuthContext, codename: string) => auth.permissions.has(codename);
export const hasRole = (auth: AuthContext, ...roles: string[]) => auth.roles.some((r) => roles.includes(r));

/** A preHandler that lets only callers with one of the roles through. */
export const roleGuard =
  (...roles: string[]) =>
  async (request: FastifyRequest) => {
    if (!hasRole(requireAuth(request), ...roles)) throw forbidden();
  };

/** A preHandler that lets only callers whose first group grants the permission through. */
export const permissionGuard = (codename: string) => async (request: FastifyRequest) => {
  if (!hasPermission(requireAuth(request), codename)) throw forbidden();
};
