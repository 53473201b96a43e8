import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRateLimiter, FLOOD_DISCONNECT_SECONDS, Windows } from './rate-limit.ts';

const defaults = { deviceMessages: '3:1,5:60', deviceBytes: '', tenantMessages: '4:1', tenantBytes: '' };
const limiter = (own: Record<string, string> | null = null) =>
  createRateLimiter({ defaults, load: async () => own, onError: () => undefined });

afterEach(() => vi.useRealTimers());

describe('rate limit windows', () => {
  it('allows up to each window’s capacity, and again when the window ends', () => {
    const w = new Windows('2:1,3:10');
    expect([w.take(1, 0), w.take(1, 10), w.take(1, 20)]).toEqual([true, true, false]);
    expect(w.take(1, 1000)).toBe(true);
    // the 10 s window is full now
    expect(w.take(1, 2000)).toBe(false);
    expect(w.take(1, 10_000)).toBe(true);
  });
  it('has no limit when empty', () => {
    const w = new Windows('');
    for (let i = 0; i < 1000; i++) expect(w.take(1_000_000, i)).toBe(true);
  });
});

describe('rate limiter', () => {
  it('drops what a device sends over its limits without using its tenant’s', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const l = limiter();
    const a = { id: 1, tenantId: 7 };
    const b = { id: 2, tenantId: 7 };
    expect([1, 2, 3, 4, 5].map(() => l.admit(a, 10, 'mqtt'))).toEqual(['ok', 'ok', 'ok', 'device', 'device']);
    // the tenant took three of a's messages: one more fits
    expect(l.admit(b, 10, 'http')).toBe('ok');
    expect(l.admit(b, 10, 'http')).toBe('tenant');
    expect(l.stats()).toEqual({ mqtt: { device: 2, tenant: 0 }, http: { device: 0, tenant: 1 }, disconnects: 0 });
    expect(l.deviceReport(1)).toMatchObject({ dropped: 2, disconnects: 0 });
    expect(l.deviceReport(3)).toEqual({ dropped: 0, lastAt: null, disconnects: 0 });
  });

  it('tells to disconnect a device only once it has kept on flooding for seconds in a row', () => {
    vi.useFakeTimers({ now: 2_000_000 });
    const l = limiter();
    const d = { id: 1, tenantId: 1 };
    for (let s = 0; s < FLOOD_DISCONNECT_SECONDS - 1; s++) {
      for (let i = 0; i < 10; i++) l.admit(d, 1, 'mqtt');
      expect(l.keepsFlooding(1)).toBe(false);
      vi.advanceTimersByTime(1000);
    }
    for (let i = 0; i < 10; i++) l.admit(d, 1, 'mqtt');
    expect(l.keepsFlooding(1)).toBe(true);
    expect(l.deviceReport(1).disconnects).toBe(1);
  });

  it('applies a tenant’s own limits once read', async () => {
    vi.useFakeTimers({ now: 3_000_000 });
    const l = limiter({ deviceMessages: '1:1' });
    const d = { id: 1, tenantId: 1 };
    expect(await l.tenantLimits(1)).toMatchObject({ limits: { deviceMessages: '1:1', tenantMessages: '4:1' }, custom: ['deviceMessages'] });
    expect([l.admit(d, 1, 'mqtt'), l.admit(d, 1, 'mqtt')]).toEqual(['ok', 'device']);
  });
});
