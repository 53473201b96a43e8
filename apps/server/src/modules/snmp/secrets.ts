import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Community strings and v3 keys are stored sealed (AES-256-GCM under the install's trap-forwarding secret). */
export function createSealer(secret: Uint8Array) {
  const key = createHash('sha256').update(secret).digest();
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed: string | null): string | null {
      if (!sealed?.startsWith('v1:')) return null;
      const raw = Buffer.from(sealed.slice(3), 'base64');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
export type Sealer = ReturnType<typeof createSealer>;
