import { randomInt, randomUUID } from 'node:crypto';
import { type CurrentLogin, LOGIN_MESSAGES, type LoginResult, SERVER_MESSAGES } from '@sitewatch/contracts';
import type { FastifyRequest } from 'fastify';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { writeAudit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/auth/context.ts';
import { burnPasswordCheck, hashPassword, isCommonPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import type { TokenSigner } from '../../platform/auth/tokens.ts';
import { randomToken, safeEqual, sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../../platform/errors.ts';
import type { Clock } from '../../platform/module.ts';
import type { LiveSession, LiveSessionCheck } from '../../platform/push/sessions.ts';
import type { SmsSender } from '../../platform/sms.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { sharedResponse } from '../../platform/validation.ts';
import type { Account, UserAccounts } from '../users/accounts.ts';
import type { UserDirectory } from '../users/directory.ts';
import type { UserSessionsPort } from '../users/sessions.ts';
import * as repo from './repository.ts';
import { toUserView, userViewOf } from './user-view.ts';

export interface AuthSettings {
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  maxFailures: number;
  lockoutMinutes: number;
  captchaFixedAnswer?: string;
}

export interface AuthDeps {
  db: Db;
  signer: TokenSigner;
  sms: SmsSender;
  settings: AuthSettings;
  /** Roles for which the tenant requires a second factor. */
  mfaRequiredRoles(tenantId: number): Promise<string[]>;
  /** Digits of a mobile number in the tenant (SPEC 5 and 9: 10 unless the tenant says otherwise). */
  mobileNumberLength(tenantId: number): Promise<number>;
  /** Session, captcha, code and lockout times (caches keep real time: they only save lookups). */
  clock: Clock;
  /** The users table for sign-in: credentials, lockout, second factor, profile (the users module owns it). */
  accounts: UserAccounts;
  /** A session's user as requests see them: active, with current roles and permissions (the users module). */
  users: Pick<UserDirectory, 'actors'>;
}

const CAPTCHA_TTL_MS = 5 * 60_000;
const OTP_TTL_MS = 5 * 60_000;
const OTP_MAX_ATTEMPTS = 5;
const TOUCH_EVERY_MS = 60_000;
type SvgCaptcha = typeof import('svg-captcha');
let svgCaptchaLoad: Promise<SvgCaptcha> | undefined;
/** svg-captcha parses its font as it loads (2 MB of heap): it comes with the first captcha, not with the server. */
const loadSvgCaptcha = () => (svgCaptchaLoad ??= import('svg-captcha').then((m) => m.default));
/** svg-captcha renders a given text when called as a function; its typings omit that form. */
const renderCaptchaText = (svgCaptcha: SvgCaptcha, text: string) =>
  (svgCaptcha as unknown as (t: string, o: object) => string)(text, { background: '#f4f6f8' });
const USERNAME_PATTERN = /^[\w.@+-]+$/;

export interface SessionStart {
  login: CurrentLogin;
  cookie: string;
  maxAgeSeconds: number;
  sessionId: string;
}

/**
 * Sessions read by recent requests, kept for a moment so that a burst of API calls costs one lookup. Revocations
 * made by this process evict at once; another node's revocation takes effect within PRINCIPAL_TTL_MS.
 */
const PRINCIPAL_TTL_MS = 2_000;
const PRINCIPAL_CACHE_MAX = 10_000;
/** A session with what a request needs of its user: whether they are active, their roles and permissions. */
type Principal = NonNullable<Awaited<ReturnType<typeof repo.findSession>>> & {
  roles: string[];
  permissions: ReadonlySet<string>;
  isActive: boolean;
};

export function createAuthService(deps: AuthDeps) {
  const { db, signer, settings, clock, accounts } = deps;
  const now = () => clock.now();
  const principals = new Map<string, { principal: Principal; at: number }>();
  /** Token pairs handed out by /current-login/, per session (see currentTokens). */
  const minted = new Map<string, { gen: number; tokens: { access: string; refresh: string }; until: number }>();
  /**
   * /current-login/'s answer per session: the user as their screens show them, with the session's token pair. It
   * lives as long as a cached principal and goes with it (a revocation, a change of the user or of a group), so a
   * polling tab costs no statement; another process's change to the user is seen within PRINCIPAL_TTL_MS.
   */
  const currentLogins = new Map<string, { userId: number; tokens: object; answer: CurrentLogin; at: number }>();

  async function findPrincipal(tenantId: number, by: { sessionId: string } | { cookieHash: string }): Promise<Principal | undefined> {
    const session = await repo.findSession(db, tenantId, by);
    if (!session) return undefined;
    const [user] = await deps.users.actors(tenantId, [session.userId]);
    return { ...session, roles: user?.roles ?? [], permissions: user?.permissions ?? new Set(), isActive: user !== undefined };
  }

  async function lookupPrincipal(tenantId: number, by: { sessionId: string } | { cookieHash: string }) {
    const key = 'sessionId' in by ? `${tenantId}:s:${by.sessionId}` : `${tenantId}:c:${by.cookieHash}`;
    const hit = principals.get(key);
    if (hit && Date.now() - hit.at < PRINCIPAL_TTL_MS) return hit.principal;
    const principal = await findPrincipal(tenantId, by);
    if (principals.size >= PRINCIPAL_CACHE_MAX) principals.clear();
    if (principal) principals.set(key, { principal, at: Date.now() });
    return principal;
  }

  /** Drops cached sessions of a session id or of a whole user after a revocation. */
  function forgetPrincipals(match: { sessionId?: string; userId?: number }) {
    for (const [key, { principal }] of principals) {
      if (principal.sessionId === match.sessionId || principal.userId === match.userId) {
        principals.delete(key);
        minted.delete(principal.sessionId);
      }
    }
    if (match.sessionId) minted.delete(match.sessionId);
    forgetCurrentLogins(match);
  }

  /** Every change this service makes to a user goes through here, so their next /current-login/ shows it. */
  async function updateAccount(...args: Parameters<UserAccounts['update']>) {
    await accounts.update(...args);
    forgetCurrentLogins({ userId: args[1] });
  }

  function forgetCurrentLogins(match: { sessionId?: string; userId?: number }) {
    if (match.sessionId) currentLogins.delete(match.sessionId);
    if (match.userId === undefined) return;
    for (const [sessionId, entry] of currentLogins) if (entry.userId === match.userId) currentLogins.delete(sessionId);
  }

  async function issueTokens(tenantId: number, userId: number, sessionId: string, gen: number) {
    const [access, refresh] = await Promise.all([
      signer.signAccess({ userId, tenantId, sessionId }),
      signer.signRefresh({ userId, tenantId, sessionId, gen }),
    ]);
    return { access, refresh };
  }

  /**
   * The token pair /current-login/ answers with: the pair minted for the session's current refresh generation is
   * handed out again until half of the access token's life is gone, so polling tabs cost no signing.
   */
  async function currentTokens(tenantId: number, userId: number, sessionId: string, gen: number) {
    const hit = minted.get(sessionId);
    if (hit && hit.gen === gen && hit.until > Date.now()) return hit.tokens;
    const tokens = await issueTokens(tenantId, userId, sessionId, gen);
    if (minted.size >= PRINCIPAL_CACHE_MAX) minted.clear();
    minted.set(sessionId, { gen, tokens, until: Date.now() + signer.accessTtlSeconds * 500 });
    return tokens;
  }

  async function startSession(
    request: FastifyRequest,
    tenant: Tenant,
    user: Account,
    loginRole: string,
    method: string,
  ): Promise<SessionStart> {
    const sessionId = randomUUID();
    const cookie = randomToken(32);
    const maxAgeSeconds = settings.sessionMaxHours * 3600;
    const startedAt = now();
    await repo.insertSession(db, {
      id: sessionId,
      tenantId: tenant.id,
      userId: user.id,
      cookieHash: sha256(cookie),
      loginRole,
      loginMethod: method,
      userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
      ip: request.ip,
      startedAt,
      expiresAt: new Date(startedAt.getTime() + maxAgeSeconds * 1000),
    });
    await accounts.resetLoginFailures(tenant.id, user.id);
    await writeAudit(db, request, {
      tenantId: tenant.id,
      userId: user.id,
      username: user.username,
      action: `login.${method}`,
      outcome: 'success',
      detail: { role: loginRole },
    });
    const tokens = await issueTokens(tenant.id, user.id, sessionId, 0);
    return { login: { user: await toUserView(accounts, user), ...tokens }, cookie, maxAgeSeconds, sessionId };
  }

  async function deny(
    request: FastifyRequest,
    tenant: Tenant,
    action: string,
    outcome: 'failure' | 'denied',
    username: string | null,
    userId: number | null,
    reason: string,
    status: number,
    message: string,
  ): Promise<never> {
    await writeAudit(db, request, { tenantId: tenant.id, userId, username, action, outcome, detail: { reason } });
    throw new HttpError(status, message, reason);
  }

  /** After the first factor: either a session, or a challenge for the second factor. */
  async function afterFirstFactor(
    request: FastifyRequest,
    tenant: Tenant,
    user: Account,
    role: string,
    method: string,
  ): Promise<LoginResult | SessionStart> {
    const required = await deps.mfaRequiredRoles(tenant.id);
    const mustUseTotp = user.totp_enabled || user.roles.some((r) => required.includes(r));
    if (!mustUseTotp) return startSession(request, tenant, user, role, method);
    const mfaToken = await signer.signMfa({ userId: user.id, tenantId: tenant.id, role, method });
    return { mfaRequired: true, mfaToken, setupRequired: !user.totp_enabled };
  }

  function checkRoleAndState(request: FastifyRequest, tenant: Tenant, user: Account, role: string, action: string) {
    if (!user.is_active)
      return deny(request, tenant, action, 'denied', user.username, user.id, 'inactive', 401, LOGIN_MESSAGES.invalidCredentials);
    if (role !== 'auth' && !user.roles.includes(role)) {
      return deny(request, tenant, action, 'denied', user.username, user.id, 'role_mismatch', 403, LOGIN_MESSAGES.unauthorized);
    }
    return undefined;
  }

  async function mfaUser(tenant: Tenant, mfaToken: string) {
    const claims = await signer.verifyMfa(mfaToken);
    if (!claims || claims.tid !== tenant.id) throw unauthorized(SERVER_MESSAGES.sessionExpired);
    const user = await accounts.byId(tenant.id, Number(claims.sub));
    if (!user?.is_active) throw unauthorized(SERVER_MESSAGES.sessionExpired);
    return { claims, user };
  }

  const checkTotp = async (secret: string | null, code: string) =>
    Boolean(secret) && (await verifyTotp({ secret: secret as string, token: code, epochTolerance: 30 })).valid;

  return {
    async captcha(tenant: Tenant) {
      const svgCaptcha = await loadSvgCaptcha();
      const made = svgCaptcha.create({ size: 5, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f4f6f8' });
      const answer = settings.captchaFixedAnswer ?? made.text;
      const captchaId = randomUUID();
      await repo.insertCaptcha(db, {
        id: captchaId,
        tenantId: tenant.id,
        answerHash: sha256(answer.toLowerCase()),
        expiresAt: new Date(now().getTime() + CAPTCHA_TTL_MS),
      });
      if (Math.random() < 0.01) await repo.deleteExpiredCaptchas(db, now());
      const image = settings.captchaFixedAnswer ? renderCaptchaText(svgCaptcha, answer) : made.data;
      return { captchaId, image };
    },

    async passwordLogin(
      request: FastifyRequest,
      tenant: Tenant,
      body: { username: string; password: string; captchaId: string; captcha: string; role: string },
    ) {
      const action = 'login.password';
      const stored = await repo.takeCaptcha(db, tenant.id, body.captchaId, now());
      if (!stored)
        return deny(
          request,
          tenant,
          action,
          'failure',
          body.username,
          null,
          'captcha_expired',
          400,
          LOGIN_MESSAGES.captchaVerificationFailed,
        );
      if (!safeEqual(stored.answer_hash, sha256(body.captcha.toLowerCase()))) {
        return deny(request, tenant, action, 'failure', body.username, null, 'captcha_wrong', 400, LOGIN_MESSAGES.invalidCaptcha);
      }
      if (!USERNAME_PATTERN.test(body.username)) {
        return deny(request, tenant, action, 'failure', body.username, null, 'username_format', 400, LOGIN_MESSAGES.invalidUserName);
      }
      const user = await accounts.byUsername(tenant.id, body.username);
      if (!user) {
        await burnPasswordCheck(body.password);
        return deny(request, tenant, action, 'failure', body.username, null, 'unknown_user', 401, LOGIN_MESSAGES.invalidCredentials);
      }
      if (user.locked_until && user.locked_until > now()) {
        return deny(request, tenant, action, 'denied', user.username, user.id, 'locked', 423, LOGIN_MESSAGES.accountLocked);
      }
      if (!(await verifyPassword(user.password_hash, body.password))) {
        const after = await accounts.recordLoginFailure(tenant.id, user.id, settings, now());
        const locked = after.locked_until !== null && after.locked_until > now();
        return deny(
          request,
          tenant,
          action,
          'failure',
          user.username,
          user.id,
          locked ? 'locked_now' : 'wrong_password',
          locked ? 423 : 401,
          locked ? LOGIN_MESSAGES.accountLocked : LOGIN_MESSAGES.invalidCredentials,
        );
      }
      await checkRoleAndState(request, tenant, user, body.role, action);
      return afterFirstFactor(request, tenant, user, body.role, 'password');
    },

    async sendOtp(request: FastifyRequest, tenant: Tenant, body: { mobile: string; role: string }) {
      const user = await accounts.byMobile(tenant.id, body.mobile);
      if (!user?.is_active) {
        return deny(request, tenant, 'otp.send', 'failure', body.mobile, null, 'unknown_mobile', 404, LOGIN_MESSAGES.mobileNotRegistered);
      }
      if (user.locked_until && user.locked_until > now()) {
        return deny(request, tenant, 'otp.send', 'denied', user.username, user.id, 'locked', 423, LOGIN_MESSAGES.accountLocked);
      }
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await repo.insertOtp(db, {
        tenantId: tenant.id,
        userId: user.id,
        codeHash: sha256(code),
        expiresAt: new Date(now().getTime() + OTP_TTL_MS),
      });
      await deps.sms.send(tenant.id, body.mobile, `Your sign-in code is ${code}. It expires in 5 minutes.`);
      return { message: LOGIN_MESSAGES.otpSent };
    },

    async verifyOtp(request: FastifyRequest, tenant: Tenant, body: { mobile: string; otp: string; role: string }) {
      const action = 'login.otp';
      const user = await accounts.byMobile(tenant.id, body.mobile);
      if (!user?.is_active)
        return deny(request, tenant, action, 'failure', body.mobile, null, 'unknown_mobile', 404, LOGIN_MESSAGES.mobileNotRegistered);
      if (user.locked_until && user.locked_until > now()) {
        return deny(request, tenant, action, 'denied', user.username, user.id, 'locked', 423, LOGIN_MESSAGES.accountLocked);
      }
      const otp = await repo.latestOtp(db, tenant.id, user.id);
      const usable = otp && !otp.used_at && otp.expires_at > now() && otp.attempts < OTP_MAX_ATTEMPTS;
      if (!usable || !safeEqual(otp.code_hash, sha256(body.otp))) {
        if (otp && usable) await repo.countOtpAttempt(db, otp.id);
        return deny(request, tenant, action, 'failure', user.username, user.id, 'otp_wrong', 400, LOGIN_MESSAGES.otpIncorrect);
      }
      if (!(await repo.spendOtp(db, otp.id)))
        return deny(request, tenant, action, 'failure', user.username, user.id, 'otp_spent', 400, LOGIN_MESSAGES.otpIncorrect);
      await checkRoleAndState(request, tenant, user, body.role, action);
      return afterFirstFactor(request, tenant, user, body.role, 'otp');
    },

    /** Second step of a sign-in that needs TOTP. */
    async verifyTotpLogin(request: FastifyRequest, tenant: Tenant, body: { mfaToken: string; code: string }) {
      const { claims, user } = await mfaUser(tenant, body.mfaToken);
      if (!user.totp_enabled || !(await checkTotp(user.totp_secret, body.code))) {
        const after = await accounts.recordLoginFailure(tenant.id, user.id, settings, now());
        const locked = after.locked_until !== null && after.locked_until > now();
        return deny(
          request,
          tenant,
          'login.totp',
          'failure',
          user.username,
          user.id,
          'totp_wrong',
          locked ? 423 : 400,
          locked ? LOGIN_MESSAGES.accountLocked : SERVER_MESSAGES.mfaInvalid,
        );
      }
      return startSession(request, tenant, user, claims.role, `${claims.method}+totp`);
    },

    /** Enrolment inside a sign-in whose role requires TOTP: first a secret, then a code that proves it. */
    async enrolTotpStart(tenant: Tenant, mfaToken: string) {
      const { user } = await mfaUser(tenant, mfaToken);
      if (user.totp_enabled) throw badRequest('Two-factor authentication is already set up');
      const secret = generateSecret();
      await updateAccount(tenant.id, user.id, { totp_secret: secret });
      return { secret, otpauthUrl: generateURI({ issuer: tenant.name, label: user.username, secret }) };
    },

    async enrolTotpFinish(request: FastifyRequest, tenant: Tenant, body: { mfaToken: string; code: string }) {
      const { claims, user } = await mfaUser(tenant, body.mfaToken);
      if (user.totp_enabled || !(await checkTotp(user.totp_secret, body.code))) throw badRequest(SERVER_MESSAGES.mfaInvalid);
      await updateAccount(tenant.id, user.id, { totp_enabled: true });
      await writeAudit(db, request, {
        tenantId: tenant.id,
        userId: user.id,
        username: user.username,
        action: 'totp.enable',
        outcome: 'success',
      });
      return startSession(request, tenant, { ...user, totp_enabled: true }, claims.role, `${claims.method}+totp`);
    },

    async totpSetup(tenant: Tenant, auth: AuthContext) {
      const user = await accounts.byId(tenant.id, auth.userId);
      if (!user) throw unauthorized();
      if (user.totp_enabled) throw badRequest('Two-factor authentication is already set up');
      const secret = generateSecret();
      await updateAccount(tenant.id, user.id, { totp_secret: secret });
      return { secret, otpauthUrl: generateURI({ issuer: tenant.name, label: user.username, secret }) };
    },

    async totpEnable(request: FastifyRequest, tenant: Tenant, auth: AuthContext, code: string) {
      const user = await accounts.byId(tenant.id, auth.userId);
      if (!user || user.totp_enabled || !(await checkTotp(user.totp_secret, code))) throw badRequest(SERVER_MESSAGES.mfaInvalid);
      await updateAccount(tenant.id, user.id, { totp_enabled: true });
      await writeAudit(db, request, {
        tenantId: tenant.id,
        userId: user.id,
        username: user.username,
        action: 'totp.enable',
        outcome: 'success',
      });
      return toUserView(accounts, { ...user, totp_enabled: true });
    },

    async totpDisable(request: FastifyRequest, tenant: Tenant, auth: AuthContext, code: string) {
      const user = await accounts.byId(tenant.id, auth.userId);
      if (!user?.totp_enabled || !(await checkTotp(user.totp_secret, code))) throw badRequest(SERVER_MESSAGES.mfaInvalid);
      const required = await deps.mfaRequiredRoles(tenant.id);
      if (user.roles.some((r) => required.includes(r))) throw forbidden(SERVER_MESSAGES.mfaSetupRequired);
      await updateAccount(tenant.id, user.id, { totp_enabled: false, totp_secret: null });
      await writeAudit(db, request, {
        tenantId: tenant.id,
        userId: user.id,
        username: user.username,
        action: 'totp.disable',
        outcome: 'success',
      });
      return toUserView(accounts, { ...user, totp_enabled: false, totp_secret: null });
    },

    /** The signed-in user with a fresh token pair. */
    async currentLogin(tenant: Tenant, auth: AuthContext): Promise<CurrentLogin> {
      const tokens = await currentTokens(tenant.id, auth.userId, auth.sessionId, auth.refreshGen);
      const hit = currentLogins.get(auth.sessionId);
      if (hit && hit.tokens === tokens && Date.now() - hit.at < PRINCIPAL_TTL_MS) return hit.answer;
      const row = await accounts.withGroups(tenant.id, auth.userId);
      if (!row) throw unauthorized();
      const { groups, ...user } = row;
      const answer = sharedResponse({ user: userViewOf(user, groups), ...tokens });
      if (currentLogins.size >= PRINCIPAL_CACHE_MAX) currentLogins.clear();
      currentLogins.set(auth.sessionId, { userId: auth.userId, tokens, answer, at: Date.now() });
      return answer;
    },

    async refresh(request: FastifyRequest, tenant: Tenant, token: string) {
      const claims = await signer.verifyRefresh(token);
      if (!claims || claims.tid !== tenant.id) throw unauthorized(SERVER_MESSAGES.sessionExpired, 'token_not_valid');
      const gen = await repo.advanceRefreshGeneration(db, tenant.id, claims.sid, claims.gen);
      forgetPrincipals({ sessionId: claims.sid });
      if (gen === 'reused') {
        await repo.revokeSession(db, tenant.id, claims.sid);
        await writeAudit(db, request, {
          tenantId: tenant.id,
          userId: Number(claims.sub),
          action: 'token.refresh',
          outcome: 'denied',
          detail: { reason: 'refresh_reused', session: claims.sid },
        });
        throw unauthorized(SERVER_MESSAGES.refreshReused, 'token_reused');
      }
      const principal = gen === null ? undefined : await findPrincipal(tenant.id, { sessionId: claims.sid });
      if (!principal || gen === null || !isLive(principal)) throw unauthorized(SERVER_MESSAGES.sessionExpired, 'token_not_valid');
      return issueTokens(tenant.id, principal.userId, principal.sessionId, gen);
    },

    async logout(request: FastifyRequest, tenant: Tenant | null, auth: AuthContext | null) {
      if (tenant && auth) {
        await repo.revokeSession(db, tenant.id, auth.sessionId);
        forgetPrincipals({ sessionId: auth.sessionId });
        await writeAudit(db, request, { tenantId: tenant.id, userId: auth.userId, action: 'logout', outcome: 'success' });
      }
      const role = auth?.loginRole ?? 'auth';
      return { redirectURL: `/${role}/login/` };
    },

    /** Reads the caller from a bearer access token or, failing that, the session cookie. */
    async authenticate(tenant: Tenant, bearer: string | undefined, cookie: string | undefined): Promise<AuthContext | null> {
      let principal: Principal | undefined;
      const claims = bearer ? await signer.verifyAccess(bearer) : null;
      if (claims && claims.tid === tenant.id) principal = await lookupPrincipal(tenant.id, { sessionId: claims.sid });
      if (!principal && cookie) principal = await lookupPrincipal(tenant.id, { cookieHash: sha256(cookie) });
      if (!principal || !isLive(principal)) return null;
      const at = now();
      if (at.getTime() - principal.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        principal.lastSeenAt = at;
        await repo.touchSession(db, principal.sessionId, at);
      }
      return {
        userId: principal.userId,
        tenantId: tenant.id,
        sessionId: principal.sessionId,
        loginRole: principal.loginRole,
        refreshGen: principal.refreshGen,
        roles: principal.roles,
        permissions: principal.permissions,
      };
    },

    async changePassword(request: FastifyRequest, tenant: Tenant, auth: AuthContext, body: { oldPassword: string; newPassword: string }) {
      const user = await accounts.byId(tenant.id, auth.userId);
      if (!user) throw unauthorized();
      if (!(await verifyPassword(user.password_hash, body.oldPassword))) {
        await writeAudit(db, request, {
          tenantId: tenant.id,
          userId: user.id,
          username: user.username,
          action: 'password.change',
          outcome: 'failure',
        });
        throw badRequest(SERVER_MESSAGES.wrongPassword, 'wrong_password');
      }
      if (isCommonPassword(body.newPassword) || body.newPassword.toLowerCase() === user.username.toLowerCase()) {
        throw badRequest(SERVER_MESSAGES.weakPassword, 'weak_password');
      }
      await updateAccount(tenant.id, user.id, { password_hash: await hashPassword(body.newPassword) });
      await repo.revokeOtherSessions(db, tenant.id, user.id, auth.sessionId);
      forgetPrincipals({ userId: user.id });
      await writeAudit(db, request, {
        tenantId: tenant.id,
        userId: user.id,
        username: user.username,
        action: 'password.change',
        outcome: 'success',
      });
      return { message: 'Password changed successfully' };
    },

    async profile(tenant: Tenant, auth: AuthContext) {
      const user = await accounts.byId(tenant.id, auth.userId);
      if (!user) throw unauthorized();
      return toUserView(accounts, user);
    },

    async updateProfile(
      tenant: Tenant,
      auth: AuthContext,
      body: { firstname: string; lastname: string; email: string; mobile: string | null; notificationConfig: { popup: boolean } },
    ) {
      const digits = await deps.mobileNumberLength(tenant.id);
      if (body.mobile !== null && body.mobile.replace(/^\+/, '').length !== digits) {
        throw badRequest(`Mobile number must be ${digits} digits`, 'mobile_length');
      }
      try {
        await updateAccount(tenant.id, auth.userId, {
          firstname: body.firstname,
          lastname: body.lastname,
          email: body.email,
          mobile: body.mobile,
          notification_config: JSON.stringify(body.notificationConfig),
        });
      } catch (error) {
        if ((error as { code?: string }).code === '23505') throw new HttpError(409, 'This mobile number is already in use');
        throw error;
      }
      const user = await accounts.byId(tenant.id, auth.userId);
      if (!user) throw unauthorized();
      return toUserView(accounts, user);
    },

    async sessions(tenant: Tenant, auth: AuthContext) {
      const rows = await repo.listActiveSessions(db, tenant.id, auth.userId, now());
      const contents = rows.map((r) => ({
        id: r.id,
        createdAt: r.created_at.toISOString(),
        lastSeenAt: r.last_seen_at.toISOString(),
        userAgent: r.user_agent,
        ip: r.ip,
        loginMethod: r.login_method,
        current: r.id === auth.sessionId,
      }));
      return { contents, totalCount: contents.length };
    },

    async revokeSession(request: FastifyRequest, tenant: Tenant, auth: AuthContext, sessionId: string) {
      if (!(await repo.revokeSession(db, tenant.id, sessionId, auth.userId))) throw notFound();
      forgetPrincipals({ sessionId });
      await writeAudit(db, request, {
        tenantId: tenant.id,
        userId: auth.userId,
        action: 'session.revoke',
        outcome: 'success',
        detail: { session: sessionId },
      });
    },

    /** Ends every session of the caller but the one making the request ("sign out other sessions"). */
    async revokeOtherSessions(request: FastifyRequest, tenant: Tenant, auth: AuthContext) {
      const result = await repo.revokeOtherSessions(db, tenant.id, auth.userId, auth.sessionId);
      const ended = result.reduce((sum, r) => sum + Number(r.numUpdatedRows), 0);
      forgetPrincipals({ userId: auth.userId });
      await writeAudit(db, request, {
        tenantId: tenant.id,
        userId: auth.userId,
        action: 'session.revoke-others',
        outcome: 'success',
        detail: { ended },
      });
      return { ended };
    },

    /** Spends a captcha of the login form for another public form (registration): 'ok', 'expired' or 'wrong'. */
    async verifyCaptcha(tenantId: number, captchaId: string, answer: string): Promise<'ok' | 'expired' | 'wrong'> {
      const stored = await repo.takeCaptcha(db, tenantId, captchaId, now());
      if (!stored) return 'expired';
      return safeEqual(stored.answer_hash, sha256(answer.toLowerCase())) ? 'ok' : 'wrong';
    },

    /** The sessions port other modules use (user administration): a user's live sessions and sign-ins. */
    userSessions: {
      list: (tenantId: number, userId: number) => repo.listActiveSessions(db, tenantId, userId, now()),
      lastSignIns: async (tenantId: number, userIds: number[]) =>
        new Map((await repo.lastSignIns(db, tenantId, userIds)).map((r) => [r.user_id, new Date(r.at)])),
      /** Ends every session of the user at once, the 2 s principal cache included. */
      endAll: async (tenantId: number, userId: number) => {
        await repo.revokeUserSessions(db, tenantId, userId);
        forgetPrincipals({ userId });
      },
      /** The user or their rights changed: their next request and /current-login/ read them afresh. */
      refresh: (userId: number) => forgetPrincipals({ userId }),
      /** A group's rights changed: every next request reads rights afresh. */
      refreshAll: () => {
        principals.clear();
        currentLogins.clear();
      },
    } satisfies UserSessionsPort,

    /** The push hub's and the live relay's check of open sockets: the same rule as isLive, for many sessions at once. */
    liveSessions: (async (sessionIds) => {
      const at = now();
      const idleSince = new Date(at.getTime() - settings.sessionIdleMinutes * 60_000);
      const live = new Map<string, LiveSession>();
      for (let i = 0; i < sessionIds.length; i += 1000) {
        const rows = await repo.unexpiredSessions(db, sessionIds.slice(i, i + 1000), at, idleSince);
        const idsByTenant = new Map<number, Set<number>>();
        for (const row of rows) idsByTenant.set(row.tenant_id, (idsByTenant.get(row.tenant_id) ?? new Set()).add(row.user_id));
        const users = new Map<string, LiveSession>();
        for (const [tenantId, ids] of idsByTenant) {
          for (const user of await deps.users.actors(tenantId, [...ids])) {
            users.set(`${tenantId}:${user.userId}`, { roles: user.roles, permissions: user.permissions });
          }
        }
        for (const row of rows) {
          const user = users.get(`${row.tenant_id}:${row.user_id}`);
          if (user) live.set(row.id, { roles: user.roles, permissions: new Set(user.permissions) });
        }
      }
      return live;
    }) satisfies LiveSessionCheck,

    async outbox(tenant: Tenant) {
      const rows = await repo.listOutbox(db, tenant.id, 50);
      return {
        contents: rows.map((r) => ({ id: r.id, to: r.to, body: r.body, createdAt: r.created_at.toISOString() })),
        totalCount: rows.length,
      };
    },
  };

  function isLive(p: { revokedAt: Date | null; expiresAt: Date; lastSeenAt: Date; isActive: boolean }) {
    const at = now().getTime();
    const idleLimit = at - settings.sessionIdleMinutes * 60_000;
    return !p.revokedAt && p.isActive && p.expiresAt.getTime() > at && p.lastSeenAt.getTime() > idleLimit;
  }
}
export type AuthService = ReturnType<typeof createAuthService>;
