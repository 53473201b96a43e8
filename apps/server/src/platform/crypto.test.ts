import { describe, expect, it } from 'vitest';
import { hmac, hmacKey, randomToken } from './crypto.ts';

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
