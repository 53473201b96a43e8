import { describe, expect, it } from 'vitest';
import { hmac, hmacKey, randomToken, sha256 } from './crypto.ts';

describe('randomToken', () => {
  it('gives the asked length and never repeats across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const token = randomToken(18);
      expect(Buffer.from(token, 'base64url')).toHaveLength(18);
      seen.add(token);
    }
    expect(seen.size).toBe(2000);
    expect(Buffer.from(randomToken(2048), 'base64url')).toHaveLength(2048);
  });
});

describe('hmac', () => {
  it('signs the same with raw bytes and with the imported key', () => {
    const secret = new Uint8Array(32).fill(7);
    expect(hmac(hmacKey(secret), 'nonce')).toBe(hmac(secret, 'nonce'));
  });
});

describe('sha256', () => {
  it('gives the SHA-256 digest in base64url (stored session hashes stay valid)', () => {
    expect(sha256('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(sha256('sessión')).toBe('3qpjoZ_HzSZhXAY8oLCccBL5qy_O-du7GFsYpFGyXaU'); // UTF-8, as before
  });
});
