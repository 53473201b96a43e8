import type { Csrf } from '../../platform/auth/csrf.ts';
import type { DomainModule } from '../../platform/module.ts';
import { authRoutes } from './routes.ts';
import { type AuthDeps, type AuthService, createAuthService } from './service.ts';

export type { AuthService } from './service.ts';

export interface AuthPorts extends AuthDeps {
  secureCookies: boolean;
  /** Gives the browser a CSRF token bound to the session a sign-in starts or a sign-out ends. */
  csrf: Pick<Csrf, 'rotate'>;
  loginRateLimit: number;
}

export interface AuthPort {
  /** Authenticates requests (the access hooks) and manages sessions. */
  auth: AuthService;
}

/** Sign-in, sessions, refresh tokens, MFA and the captcha. */
export function createAuthModule(ports: AuthPorts): DomainModule<AuthPort> {
  const { secureCookies, loginRateLimit, csrf, ...deps } = ports;
  const auth = createAuthService(deps);
  return {
    ports: { auth },
    register(app) {
      authRoutes(app, { auth, secureCookies, loginRateLimit, csrf });
    },
  };
}
