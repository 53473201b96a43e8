/**
 * Value formats of the dynamic form fields (SPEC 5), shared by the form screen and the server. Dates are parsed
 * strictly against a token format (YYYY, MM, DD, HH, mm, ss; everything else is literal), so '2026-02-30' or
 * '2026-2-3' fail where a lenient parser would roll them over.
 */

export const DEFAULT_DATE_FORMAT = 'YYYY-MM-DD';
export const DEFAULT_DATE_TIME_FORMAT = 'YYYY-MM-DDTHH:mm:ss';
/** The date picker's value: a date, or a date with a 24-hour time when withTime is set. */
export const PICKER_DATE_FORMAT = 'YYYY-MM-DD';
export const PICKER_DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';
export const TIME_FORMAT = 'HH:mm';
export const DATE_RANGE_FORMAT = 'YYYY/MM/DD';

const TOKENS = ['YYYY', 'MM', 'DD', 'HH', 'mm', 'ss'] as const;
type Token = (typeof TOKENS)[number];
export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

type Piece = { token: Token } | { literal: string };

function tokenize(format: string): Piece[] {
  const pieces: Piece[] = [];
  let i = 0;
  while (i < format.length) {
    const token = TOKENS.find((t) => format.startsWith(t, i));
    if (token) {
      pieces.push({ token });
      i += token.length;
    } else {
      pieces.push({ literal: format[i] as string });
      i += 1;
    }
  }
  return pieces;
}

/** True when the format has at least a year, month and day token (a broken rule otherwise). */
export function isUsableDateFormat(format: string): boolean {
  const tokens = tokenize(format).flatMap((p) => ('token' in p ? [p.token] : []));
  return ['YYYY', 'MM', 'DD'].every((t) => tokens.filter((x) => x === t).length === 1) && new Set(tokens).size === tokens.length;
}

/** Strict parse: every token has its exact width, literals match, and the calendar date exists. */
export function parseStrict(value: string, format: string): DateParts | null {
  const parts: DateParts = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  let i = 0;
  for (const piece of tokenize(format)) {
    if ('literal' in piece) {
      if (value[i] !== piece.literal) return null;
      i += 1;
      continue;
    }
    const width = piece.token.length;
    const digits = value.slice(i, i + width);
    if (digits.length !== width || !/^\d+$/.test(digits)) return null;
    const n = Number(digits);
    i += width;
    if (piece.token === 'YYYY') parts.year = n;
    else if (piece.token === 'MM') parts.month = n;
    else if (piece.token === 'DD') parts.day = n;
    else if (piece.token === 'HH') parts.hour = n;
    else if (piece.token === 'mm') parts.minute = n;
    else parts.second = n;
  }
  if (i !== value.length) return null;
  if (parts.month < 1 || parts.month > 12 || parts.day < 1 || parts.hour > 23 || parts.minute > 59 || parts.second > 59) return null;
  const daysInMonth = new Date(Date.UTC(parts.year, parts.month, 0)).getUTCDate();
  if (parts.day > daysInMonth) return null;
  return parts;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Writes date parts in a token format (the inverse of parseStrict). */
export function formatParts(parts: DateParts, format: string): string {
  return tokenize(format)
    .map((p) => {
      if ('literal' in p) return p.literal;
      if (p.token === 'YYYY') return pad(parts.year, 4);
      if (p.token === 'MM') return pad(parts.month);
      if (p.token === 'DD') return pad(parts.day);
      if (p.token === 'HH') return pad(parts.hour);
      if (p.token === 'mm') return pad(parts.minute);
      return pad(parts.second);
    })
    .join('');
}

const ordinal = (p: DateParts) => Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);

/** 'YYYY/MM/DD - YYYY/MM/DD'; empty when no full range is chosen (SPEC 5). */
export function formatDateRange(start: DateParts | null, end: DateParts | null): string {
  if (!start || !end) return '';
  return `${formatParts(start, DATE_RANGE_FORMAT)} - ${formatParts(end, DATE_RANGE_FORMAT)}`;
}

export function parseDateRange(value: string): { start: DateParts; end: DateParts } | null {
  const [a, b, ...rest] = value.split(' - ');
  if (a === undefined || b === undefined || rest.length) return null;
  const start = parseStrict(a, DATE_RANGE_FORMAT);
  const end = parseStrict(b, DATE_RANGE_FORMAT);
  if (!start || !end || ordinal(start) > ordinal(end)) return null;
  return { start, end };
}

export interface Duration {
  hours: number;
  minutes: number;
  seconds: number;
}

/** '{h}hr {m}min {s}sec' (SPEC 5); hours from 0 up, minutes and seconds 0 to 59. */
export const formatDuration = (d: Duration) => `${d.hours}hr ${d.minutes}min ${d.seconds}sec`;

export function parseDuration(value: string): Duration | null {
  const m = /^(\d{1,4})hr (\d{1,2})min (\d{1,2})sec$/.exec(value);
  if (!m) return null;
  const d = { hours: Number(m[1]), minutes: Number(m[2]), seconds: Number(m[3]) };
  return d.minutes > 59 || d.seconds > 59 ? null : d;
}

/** The randomid field: the time in milliseconds followed by a four-digit random number (SPEC 5). */
export function generateRandomId(now = Date.now(), random = Math.random()): string {
  return `${now}${String(Math.floor(random * 10_000)).padStart(4, '0')}`;
}
export const RANDOM_ID_PATTERN = /^\d{13}\d{4}$/;

export const isTime = (value: string) => parseStrict(value, TIME_FORMAT) !== null;
