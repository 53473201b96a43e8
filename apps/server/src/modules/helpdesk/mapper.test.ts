import { describe, expect, it } from 'vitest';
import { iso } from './mapper.ts';

describe('iso', () => {
  it('writes every instant as toISOString does, the first time and again', () => {
    const instants = Array.from({ length: 2_000 }, () => new Date(Math.floor(Math.random() * 8.64e12) * (Math.random() < 0.1 ? -1 : 1)));
    for (const round of [1, 2]) {
      for (const d of instants) expect(iso(d), `round ${round}`).toBe(d.toISOString());
    }
  });

  it('reads a string as an instant, and refuses what is not one as before', () => {
    expect(iso('2026-12-04T12:00:00.123+02:00')).toBe('2026-12-04T10:00:00.123Z');
    expect(() => iso('not a date')).toThrow(RangeError);
    expect(() => iso(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('keeps no copy that a later change of a Date could make wrong', () => {
    const d = new Date('2026-12-04T10:00:00.000Z');
    expect(iso(d)).toBe('2026-12-04T10:00:00.000Z');
    d.setUTCHours(11);
    expect(iso(d)).toBe('2026-12-04T11:00:00.000Z');
  });
});
