import {
  captchaSchema,
  changePasswordSchema,
  currentLoginSchema,
  LOGIN_MESSAGES,
  type LoginResult,
  loginResultSchema,
  logoutResultSchema,
  messageSchema,
  otpSendSchema,
  otpVerifySchema,
  outboxSchema,
  passwordLoginSchema,
  profileUpdateSchema,
  refreshRequestSchema,
  sessionListSchema,
  signOutOthersResultSchema,
  tokensSchema,
  totpCodeSchema,
  totpEnrolSchema,
  totpLoginSchema,
  totpSetupSchema,
  userSchema,
  uuidParamSchema,
} from '@sitewatch/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, requireTenant, roleGuard } from '../../platform/auth/context.ts';
import type { Csrf } from '../../platform/auth/csrf.ts';
import { SESSION_COOKIE } from '../../platform/auth/hooks.ts';
import { secureTransport } from '../../platform/auth/secure-transport.ts';
import type { AuthService, SessionStart } from './service.ts';

const tags = ['auth'];

export function authRoutes(
  app: FastifyInstance,
  opts: { auth: AuthService; secureCookies: boolean; loginRateLimit: number; csrf: Pick<Csrf, 'rotate'> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth } = opts;
  const publicAccess = { access: { public: true } };
  const limited = { ...publicAccess, rateLimit: { max: opts.loginRateLimit, timeWindow: '1 minute' } };

  /** Sets the session cookie when the sign-in completed; passes a second-factor challenge through. */
  const finish = (request: FastifyRequest, reply: FastifyReply, result: SessionStart | LoginResult): LoginResult => {
    if (result && typeof result === 'object' && 'cookie' in result) {
      reply.setCookie(SESSION_COOKIE, result.cookie, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: secureTransport(request, opts.secureCookies),
        maxAge: result.maxAgeSeconds,
      });
      opts.csrf.rotate(request, reply, result.sessionId);
      return { ...result.login, message: LOGIN_MESSAGES.loginSuccessful };
    }
    return result;
  };

  r.get(
    '/api/auth/csrf/',
    { config: { access: { public: true, issuesCsrf: true } }, schema: { tags, response: { 200: z.object({ csrfToken: z.string() }) } } },
    async (request) => ({
      csrfToken: request.csrfToken ?? '',
    }),
  );

  r.get('/api/auth/captcha/', { config: limited, schema: { tags, response: { 200: captchaSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return auth.captcha(requireTenant(request));
  });

  r.post(
    '/api/auth/login/',
    { config: limited, schema: { tags, body: passwordLoginSchema, response: { 200: loginResultSchema } } },
    async (request, reply) => finish(request, reply, await auth.passwordLogin(request, requireTenant(request), request.body)),
  );

  r.post(
    '/api/auth/otp/send/',
    { config: limited, schema: { tags, body: otpSendSchema, response: { 200: messageSchema } } },
    async (request) => auth.sendOtp(request, requireTenant(request), request.body),
  );

  r.post(
    '/api/auth/otp/verify/',
    { config: limited, schema: { tags, body: otpVerifySchema, response: { 200: loginResultSchema } } },
    async (request, reply) => finish(request, reply, await auth.verifyOtp(request, requireTenant(request), request.body)),
  );

  r.post(
    '/api/auth/totp/verify/',
    { config: limited, schema: { tags, body: totpLoginSchema, response: { 200: loginResultSchema } } },
    async (request, reply) => finish(request, reply, await auth.verifyTotpLogin(request, requireTenant(request), request.body)),
  );

  r.post(
    '/api/auth/totp/enrol/start/',
    { config: limited, schema: { tags, body: z.object({ mfaToken: z.string().min(1) }), response: { 200: totpSetupSchema } } },
    async (request) => auth.enrolTotpStart(requireTenant(request), request.body.mfaToken),
  );

  r.post(
    '/api/auth/totp/enrol/',
    { config: limited, schema: { tags, body: totpEnrolSchema, response: { 200: loginResultSchema } } },
    async (request, reply) => finish(request, reply, await auth.enrolTotpFinish(request, requireTenant(request), request.body)),
  );

  r.post('/api/auth/totp/setup/', { schema: { tags, response: { 200: totpSetupSchema } } }, async (request) =>
    auth.totpSetup(requireTenant(request), requireAuth(request)),
  );
  r.post('/api/auth/totp/enable/', { schema: { tags, body: totpCodeSchema, response: { 200: userSchema } } }, async (request) =>
    auth.totpEnable(request, requireTenant(request), requireAuth(request), request.body.code),
  );
  r.post('/api/auth/totp/disable/', { schema: { tags, body: totpCodeSchema, response: { 200: userSchema } } }, async (request) =>
    auth.totpDisable(request, requireTenant(request), requireAuth(request), request.body.code),
  );

  r.get('/current-login/', { schema: { tags, response: { 200: currentLoginSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return auth.currentLogin(requireTenant(request), requireAuth(request));
  });

  r.post(
    '/api/token/refresh/',
    { config: limited, schema: { tags, body: refreshRequestSchema, response: { 200: tokensSchema } } },
    async (request) => auth.refresh(request, requireTenant(request), request.body.refresh),
  );

  r.get('/logout/', { config: publicAccess, schema: { tags, response: { 200: logoutResultSchema } } }, async (request, reply) => {
    const result = await auth.logout(request, request.tenant, request.auth);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    if (request.auth) opts.csrf.rotate(request, reply, null);
    return result;
  });

  r.post(
    '/api/auth/change-password/',
    { schema: { tags, body: changePasswordSchema, response: { 200: messageSchema } } },
    async (request) => auth.changePassword(request, requireTenant(request), requireAuth(request), request.body),
  );

  r.get('/api/auth/profile/', { schema: { tags, response: { 200: userSchema } } }, async (request) =>
    auth.profile(requireTenant(request), requireAuth(request)),
  );
  r.put('/api/auth/profile/', { schema: { tags, body: profileUpdateSchema, response: { 200: userSchema } } }, async (request) =>
    auth.updateProfile(requireTenant(request), requireAuth(request), request.body),
  );

  r.get('/api/auth/sessions/', { schema: { tags, response: { 200: sessionListSchema } } }, async (request) =>
    auth.sessions(requireTenant(request), requireAuth(request)),
  );
  r.post('/api/auth/sessions/sign-out-others/', { schema: { tags, response: { 200: signOutOthersResultSchema } } }, async (request) =>
    auth.revokeOtherSessions(request, requireTenant(request), requireAuth(request)),
  );
  r.delete(
    '/api/auth/sessions/:id/',
    { schema: { tags, params: uuidParamSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await auth.revokeSession(request, requireTenant(request), requireAuth(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get('/api/auth/outbox/', { preHandler: roleGuard('sysadmin'), schema: { tags, response: { 200: outboxSchema } } }, async (request) =>
    auth.outbox(requireTenant(request)),
  );
}
