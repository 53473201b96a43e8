import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parsePostgresDate as general, parseTimestamptz, TIMESTAMPTZ } from './pg-timestamps.ts';

const same = (s: string) => {
  const fast = parseTimestamptz(s);
  const slow = general(s);
  expect(fast instanceof Date ? fast.getTime() : fast, s).toEqual(slow instanceof Date ? slow.getTime() : slow);
};

describe('parseTimestamptz', () => {
  it('reads what PostgreSQL writes as the general parser does', () => {
    for (const s of [
      '2026-12-01 21:08:29+00',
      '2026-12-01 21:08:29.5+00',
      '2026-12-01 21:08:29.512345+00',
      '2026-12-01 21:08:29.999999+00',
      '2026-12-01 21:08:29.5+05:30',
      '2026-12-01 21:08:29.5-03',
      '2026-12-31 23:59:59.999-09:30',
      '2000-02-29 00:00:00+14',
      '1970-01-01 00:00:00+00',
      '1969-12-31 23:59:59.001+00',
    ]) {
      same(s);
    }
  });

  it('agrees with the general parser on random instants and offsets', () => {
    for (let k = 0; k < 2000; k++) {
      const at = new Date(Date.UTC(1900, 0, 1) + Math.floor(Math.random() * 6e12));
      const fraction = ['', '.5', `.${String(at.getUTCMilliseconds()).padStart(3, '0')}`, '.123456'][k % 4];
      const offset = ['+00', '+05:30', '-08', '-03:30', '+14'][k % 5];
      same(`${at.toISOString().slice(0, 19).replace('T', ' ')}${fraction}${offset}`);
    }
  });

  it('leaves the rare shapes to the general parser', () => {
    for (const s of [
      'infinity',
      '-infinity',
      '0099-01-01 00:00:00+00',
      '0001-01-01 00:00:00+00 BC',
      '12345-01-01 00:00:00+00',
      '1890-01-01 00:00:00+00:53:28',
    ]) {
      same(s);
    }
  });

  it("compares with pg's own parser", () => {
    expect(general).not.toBe(parseTimestamptz);
  });

  it('is the parser of timestamptz once the database module is loaded', async () => {
    await import('./db.ts');
    expect(pg.types.getTypeParser(TIMESTAMPTZ, 'text')).toBe(parseTimestamptz);
  });
});
