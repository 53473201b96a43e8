import { createSecretKey } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  sub: string;
  tid: number;
  sid: string;
}

export interface RefreshClaims {
  sub: string;
  tid: number;
  sid: string;
  gen: number;
}

export interface MfaClaims {
  sub: string;
  tid: number;
  role: string;
  method: string;
  purpose: 'mfa';
}

const ISSUER = 'sitewatch';
/** Access tokens whose signature was checked, kept until they expire: a tab's every API call repeats its token. */
const VERIFIED_MAX = 10_000;

/** Signs and checks the short-lived JWTs: the access token and the second-factor challenge. */
export function createTokenSigner(secretBytes: Uint8Array, accessMinutes: number, refreshHours = 12) {
  // One key object for the life of the process: handing jose raw bytes would import the HMAC key on every call.
  const secret = createSecretKey(secretBytes);
  const sign = (claims: Record<string, unknown>, subject: string, ttlSeconds: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(ISSUER)
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(secret);

  async function verify<T>(token: string, audience: string): Promise<T | null> {
    try {
      const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, audience, algorithms: ['HS256'] });
      return payload as T;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  const verified = new Map<string, { claims: AccessClaims; exp: number }>();
  /**
   * The signature of an access token is checked once per process (WebCrypto costs more than the rest of a small
   * request); its expiry is checked on every use. Revocation does not depend on this: the session behind the token
   * is looked up on every request.
   */
  async function verifyAccess(token: string): Promise<AccessClaims | null> {
    const hit = verified.get(token);
    if (hit) {
      if (hit.exp * 1000 > Date.now()) return hit.claims;
      verified.delete(token);
      return null;
    }
    const claims = await verify<AccessClaims & { exp?: number }>(token, 'access');
    if (!claims || typeof claims.exp !== 'number') return claims;
    if (verified.size >= VERIFIED_MAX) verified.clear();
    verified.set(token, { claims, exp: claims.exp });
    return claims;
  }

  return {
    accessTtlSeconds: accessMinutes * 60,
    signAccess: (c: { userId: number; tenantId: number; sessionId: string }) =>
      sign({ tid: c.tenantId, sid: c.sessionId, aud: 'access' }, String(c.userId), accessMinutes * 60),
    verifyAccess,
    /** The refresh token names its session and generation; rotation moves the session to the next generation. */
    signRefresh: (c: { userId: number; tenantId: number; sessionId: string; gen: number }) =>
      sign({ tid: c.tenantId, sid: c.sessionId, gen: c.gen, aud: 'refresh' }, String(c.userId), refreshHours * 3600),
    verifyRefresh: (token: string) => verify<RefreshClaims>(token, 'refresh'),
    signMfa: (c: { userId: number; tenantId: number; role: string; method: string }) =>
      sign({ tid: c.tenantId, role: c.role, method: c.method, purpose: 'mfa', aud: 'mfa' }, String(c.userId), 300),
    verifyMfa: (token: string) => verify<MfaClaims>(token, 'mfa'),
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;
