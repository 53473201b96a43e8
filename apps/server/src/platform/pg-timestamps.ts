import pg from 'pg';

export const TIMESTAMPTZ = 1184;
/** pg's own parser of the type, taken before db.ts puts the one below in its place. */
export const parsePostgresDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (s: string) => Date | number | null;

const DASH = 45;
const SPACE = 32;
const DOT = 46;
const COLON = 58;
const PLUS = 43;
const ZERO = 48;
const NINE = 57;

const twoDigits = (s: string, i: number) => (s.charCodeAt(i) - ZERO) * 10 + s.charCodeAt(i + 1) - ZERO;

/**
 * A `timestamptz` as PostgreSQL writes it (`2026-12-01 21:08:29.512345+00`, `…+05:30`), read without regular
 * expressions: a page of rows holds dozens of them and the general parser spent more time on them than on the rest
 * of the row. Anything else (infinity, BC, years before 100 or after 9999, offsets with seconds) goes to the general
 * parser, which gives the same Date for the common shape too.
 */
export function parseTimestamptz(s: string): Date | number | null {
  const n = s.length;
  if (n < 22 || s.charCodeAt(4) !== DASH || s.charCodeAt(10) !== SPACE) return parsePostgresDate(s);
  let i = 19;
  let ms = 0;
  if (s.charCodeAt(i) === DOT) {
    let scale = 100;
    for (let c = s.charCodeAt(++i); c >= ZERO && c <= NINE; c = s.charCodeAt(++i)) {
      ms += (c - ZERO) * scale;
      scale /= 10;
    }
    ms = Math.floor(ms);
  }
  const sign = s.charCodeAt(i);
  if (sign !== PLUS && sign !== DASH) return parsePostgresDate(s);
  let offsetMinutes = twoDigits(s, i + 1) * 60;
  if (n === i + 6 && s.charCodeAt(i + 3) === COLON) offsetMinutes += twoDigits(s, i + 4);
  else if (n !== i + 3) return parsePostgresDate(s);
  const year = twoDigits(s, 0) * 100 + twoDigits(s, 2);
  if (year < 100) return parsePostgresDate(s);
  const utc = Date.UTC(year, twoDigits(s, 5) - 1, twoDigits(s, 8), twoDigits(s, 11), twoDigits(s, 14), twoDigits(s, 17), ms);
  return new Date(utc - (sign === PLUS ? offsetMinutes : -offsetMinutes) * 60_000);
}
