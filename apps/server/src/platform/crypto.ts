import { createHmac, createSecretKey, hash, type KeyObject, randomFillSync, timingSafeEqual } from 'node:crypto';

/** One call, without a Hash object: a cookie-authenticated request hashes its session cookie (3–5× cheaper). */
export const sha256 = (value: string) => hash('sha256', value, 'base64url');

/**
 * Random bytes from the CSPRNG, drawn 4 KB at a time: a call per token (a session, a CSRF nonce per cookieless
 * request) cost more than the rest of a small request. Each byte is handed out once.
 */
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;
export function randomToken(bytes = 32): string {
  if (bytes > POOL_SIZE / 4) return randomFillSync(Buffer.allocUnsafe(bytes)).toString('base64url');
  if (poolOffset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const token = pool.toString('base64url', poolOffset, poolOffset + bytes);
  pool.fill(0, poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return token;
}

/** An HMAC key imported once; passing raw bytes to every hmac() call re-imports them each time. */
export const hmacKey = (key: Uint8Array): KeyObject => createSecretKey(key);
export const hmac = (key: Uint8Array | KeyObject, value: string) => createHmac('sha256', key).update(value).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
