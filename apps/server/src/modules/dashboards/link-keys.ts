import { randomBytes } from 'node:crypto';
import { LINK_PAD_LENGTH, type LinkRefusal, type RlsCondition } from '@sitewatch/contracts';
import { CompactEncrypt, compactDecrypt, errors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../../platform/db.ts';

/**
 * Keys of the analytics links, kept per install in app_secrets (one row per key id, `analytics_link:{kid}`, and the
 * active kid in `analytics_link_active`). A link is `{random}{JWE}{random}`: the JWE (dir, A256GCM, kid in its header)
 * encrypts an HS256 JWT signed with the same kid's second key, whose claims carry the dashboard, tenant, expiry,
 * link id, the row-level conditions and both random parts (so the padding cannot be changed either). Rotation adds
 * a key and makes it active; older kids still verify until retired (their row deleted).
 */

export interface LinkClaims {
  dashboardId: number;
  tenantId: number;
  linkId: string;
  conditions: RlsCondition[];
  /** Epoch seconds. */
  exp: number;
}

export class LinkRefused extends Error {
  readonly reason: LinkRefusal;
  constructor(reason: LinkRefusal) {
    super(reason);
    this.reason = reason;
  }
}

interface Key {
  kid: string;
  enc: Uint8Array;
  sig: Uint8Array;
}

const PREFIX = 'analytics_link:';
const ACTIVE = 'analytics_link_active';
const PAD = /^[A-Za-z0-9_-]+$/;
/** How often an unknown kid may trigger a reload from the database (another node may have rotated). */
const RELOAD_MS = 5_000;

const pad = () => randomBytes(LINK_PAD_LENGTH).toString('base64url').slice(0, LINK_PAD_LENGTH);

export interface LinkKeyRing {
  /** Mint a token for the claims with the active key. */
  sign(claims: LinkClaims): Promise<{ token: string; kid: string }>;
  /** Verify a token; throws LinkRefused. `now` in ms. */
  verify(token: string, now: number): Promise<LinkClaims & { kid: string }>;
  /** Add a key and make it active; returns its kid. */
  rotate(): Promise<string>;
  /** Drop a key: links it signed no longer verify. The active key cannot be retired. */
  retire(kid: string): Promise<boolean>;
  kids(): Promise<{ active: string; all: string[] }>;
}

export function createLinkKeyRing(db: Db): LinkKeyRing {
  let keys = new Map<string, Key>();
  let active = '';
  let loadedAt = 0;
  let loading: Promise<void> | null = null;

  async function load() {
    const rows = await db.selectFrom('app_secrets').select(['name', 'value']).where('name', 'like', `${PREFIX}%`).execute();
    const next = new Map<string, Key>();
    for (const row of rows) {
      const raw = Buffer.from(row.value, 'base64url');
      if (raw.length !== 64) continue;
      const kid = row.name.slice(PREFIX.length);
      next.set(kid, { kid, enc: new Uint8Array(raw.subarray(0, 32)), sig: new Uint8Array(raw.subarray(32)) });
    }
    const current = await db.selectFrom('app_secrets').select('value').where('name', '=', ACTIVE).executeTakeFirst();
    keys = next;
    active = current?.value ?? '';
    loadedAt = Date.now();
  }

  async function ensure() {
    if (active && keys.has(active)) return;
    loading ??= (async () => {
      await load();
      if (!active || !keys.has(active)) {
        await addKey(true);
        await load();
      }
    })().finally(() => {
      loading = null;
    });
    await loading;
  }

  async function addKey(makeActive: boolean) {
    const kid = `k${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    await db
      .insertInto('app_secrets')
      .values({ name: `${PREFIX}${kid}`, value: randomBytes(64).toString('base64url') })
      .execute();
    if (makeActive) {
      // first writer wins when two nodes start at once
      await db
        .insertInto('app_secrets')
        .values({ name: ACTIVE, value: kid })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
    }
    return kid;
  }

  async function keyOf(kid: string): Promise<Key | undefined> {
    let key = keys.get(kid);
    if (!key && Date.now() - loadedAt > RELOAD_MS) {
      await load();
      key = keys.get(kid);
    }
    return key;
  }

  return {
    async sign(claims) {
      await ensure();
      const key = keys.get(active) as Key;
      const before = pad();
      const after = pad();
      const jwt = await new SignJWT({ d: claims.dashboardId, t: claims.tenantId, c: claims.conditions, p: `${before}${after}` })
        .setProtectedHeader({ alg: 'HS256', kid: key.kid })
        .setJti(claims.linkId)
        .setExpirationTime(claims.exp)
        .setIssuedAt()
        .sign(key.sig);
      const jwe = await new CompactEncrypt(new TextEncoder().encode(jwt))
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: key.kid, cty: 'JWT' })
        .encrypt(key.enc);
      return { token: `${before}${jwe}${after}`, kid: key.kid };
    },

    async verify(token, now) {
      if (token.length < LINK_PAD_LENGTH * 2 + 10) throw new LinkRefused('malformed');
      const before = token.slice(0, LINK_PAD_LENGTH);
      const after = token.slice(-LINK_PAD_LENGTH);
      const jwe = token.slice(LINK_PAD_LENGTH, -LINK_PAD_LENGTH);
      if (!PAD.test(before) || !PAD.test(after) || jwe.split('.').length !== 5) throw new LinkRefused('malformed');
      let kid: string;
      try {
        const header = JSON.parse(Buffer.from(jwe.slice(0, jwe.indexOf('.')), 'base64url').toString('utf8')) as { kid?: unknown };
        if (typeof header.kid !== 'string' || header.kid.length > 40) throw new Error('kid');
        kid = header.kid;
      } catch {
        throw new LinkRefused('malformed');
      }
      if (keys.size === 0) await ensure();
      const key = await keyOf(kid);
      if (!key) throw new LinkRefused('unknown_key');
      let jwt: string;
      try {
        const { plaintext } = await compactDecrypt(jwe, key.enc, {
          keyManagementAlgorithms: ['dir'],
          contentEncryptionAlgorithms: ['A256GCM'],
        });
        jwt = new TextDecoder().decode(plaintext);
      } catch {
        throw new LinkRefused('tampered');
      }
      let payload: Record<string, unknown>;
      try {
        const verified = await jwtVerify(jwt, key.sig, { algorithms: ['HS256'], currentDate: new Date(now) });
        if (verified.protectedHeader.kid !== kid) throw new LinkRefused('tampered');
        payload = verified.payload as Record<string, unknown>;
      } catch (error) {
        if (error instanceof LinkRefused) throw error;
        if (error instanceof errors.JWTExpired) throw new LinkRefused('expired');
        throw new LinkRefused('tampered');
      }
      if (payload.p !== `${before}${after}`) throw new LinkRefused('tampered');
      const { d, t, c, jti, exp } = payload;
      if (typeof d !== 'number' || typeof t !== 'number' || typeof jti !== 'string' || typeof exp !== 'number' || !Array.isArray(c))
        throw new LinkRefused('tampered');
      return { dashboardId: d, tenantId: t, linkId: jti, conditions: c as RlsCondition[], exp, kid };
    },

    async rotate() {
      await ensure();
      const kid = await addKey(false);
      await db.updateTable('app_secrets').set({ value: kid }).where('name', '=', ACTIVE).execute();
      await load();
      return kid;
    },

    async retire(kid) {
      await ensure();
      if (kid === active) return false;
      const res = await db.deleteFrom('app_secrets').where('name', '=', `${PREFIX}${kid}`).executeTakeFirst();
      await load();
      return Number(res.numDeletedRows) > 0;
    },

    async kids() {
      await ensure();
      return { active, all: [...keys.keys()] };
    },
  };
}
