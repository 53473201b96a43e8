/**
 * Storm control for the trap receiver: a repeat of the same trap within the dedupe window is dropped, and each
 * source gets a token bucket (rate per second, burst of two seconds' worth). Pure and clocked by the caller.
 */
export interface StormSettings {
  dedupeMs: number;
  ratePerSource: number;
}

export type Verdict = 'ok' | 'deduped' | 'rate-limited';

const MAX_KEYS = 200_000;

export function createStormGuard(settings: StormSettings) {
  const seen = new Map<string, number>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  const burst = Math.max(1, settings.ratePerSource * 2);

  return {
    admit(source: string, key: string, now: number): Verdict {
      if (settings.dedupeMs > 0) {
        const until = seen.get(key);
        if (until !== undefined && until > now) return 'deduped';
      }
      let bucket = buckets.get(source);
      if (!bucket) {
        bucket = { tokens: burst, at: now };
        buckets.set(source, bucket);
      } else {
        bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * settings.ratePerSource);
        bucket.at = now;
      }
      if (bucket.tokens < 1) return 'rate-limited';
      bucket.tokens -= 1;
      if (settings.dedupeMs > 0) {
        if (seen.size >= MAX_KEYS) seen.clear();
        seen.set(key, now + settings.dedupeMs);
      }
      return 'ok';
    },
    /** Forgets expired keys and idle sources (every second or so). */
    sweep(now: number) {
      for (const [key, until] of seen) if (until <= now) seen.delete(key);
      for (const [source, b] of buckets) if (now - b.at > 60_000) buckets.delete(source);
    },
    get size() {
      return seen.size;
    },
  };
}
