import type { DomainModule } from '../../platform/module.ts';
import { authRoutes } from './routes.ts';
import { type AuthDeps, type AuthService, createAuthService } from './service.ts';

export type { AuthService } from './service.ts';

export interface AuthPorts extends AuthDeps {
  secureCookies: boolean;
  loginRateLimit: number;
}

export interface AuthPort {
  /** Authenticates requests (the access hooks) and manages sessions. */
  auth: AuthService;
}

/** Sign-in, sessions, refresh tokens, MFA and the captcha. */
export function createAuthModule(ports: AuthPorts): DomainModule<AuthPort> {
  const { secureCookies, loginRateLimit, ...deps } = ports;
  const auth = createAuthService(deps);
  return {
    ports: { auth },
    register(app) {
      authRoutes(app, { auth, secureCookies, loginRateLimit });
    },
  };
}
