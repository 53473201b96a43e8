import type { ExportColumn, ExportColumnType } from './registry.ts';

/**
 * How a declared column type reads on paper and in a spreadsheet. CSV keeps the raw values (ISO UTC times, plain
 * numbers) as before; the PDF prints times in the tenant's time zone and numbers with the column's decimals; the
 * XLSX gets real date, number and duration cells with a number format (Excel has no time zones, so a time is
 * written as the tenant's wall-clock time).
 */

const DEFAULT_DECIMALS = 2;
export const decimalsOf = (column: ExportColumn) =>
  column.type === 'integer' ? 0 : column.type === 'decimal' ? (column.decimals ?? DEFAULT_DECIMALS) : 0;

/** Number formats of the XLSX cells per type (text columns have none). */
export function xlsxFormat(column: ExportColumn): string | undefined {
  switch (column.type) {
    case 'integer':
      return '#,##0';
    case 'decimal': {
      const decimals = decimalsOf(column);
      return decimals > 0 ? `#,##0.${'0'.repeat(decimals)}` : '#,##0';
    }
    case 'datetime':
      return 'yyyy-mm-dd hh:mm';
    case 'date':
      return 'yyyy-mm-dd';
    case 'duration':
      return '[h]:mm';
    default:
      return undefined;
  }
}

export const isNumeric = (type: ExportColumnType) => type === 'integer' || type === 'decimal' || type === 'duration';

const isBlank = (v: unknown) => v === null || v === undefined || v === '';

export function instantOf(v: unknown): Date | null {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v;
  if (typeof v === 'string' || typeof v === 'number') {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

const HOUR_MS = 3_600_000;

/**
 * The wall-clock time of an instant in a time zone, as a Date whose UTC fields are that local time. The zone's
 * offset is looked up once per hour of time (offsets change on hour boundaries), so 100,000 rows cost a few hundred
 * lookups, not 100,000 Intl calls.
 */
export function wallClock(timeZone: string): (instant: Date) => Date {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return (instant) => instant;
  }
  const offsets = new Map<number, number>();
  const offsetAt = (hour: number) => {
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const parts: Record<string, number> = {};
      for (const p of format.formatToParts(new Date(hour * HOUR_MS))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
      const local = Date.UTC(
        parts.year ?? 1970,
        (parts.month ?? 1) - 1,
        parts.day ?? 1,
        parts.hour ?? 0,
        parts.minute ?? 0,
        parts.second ?? 0,
      );
      offset = local - hour * HOUR_MS;
      if (offsets.size > 10_000) offsets.clear();
      offsets.set(hour, offset);
    }
    return offset;
  };
  return (instant) => new Date(instant.getTime() + offsetAt(Math.floor(instant.getTime() / HOUR_MS)));
}

const pad = (n: number) => String(n).padStart(2, '0');
export const wallText = (wall: Date, withTime = true) =>
  `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
  (withTime ? ` ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}` : '');

const durationText = (hours: number) => {
  const minutes = Math.round(Math.abs(hours) * 60);
  return `${hours < 0 ? '-' : ''}${Math.floor(minutes / 60)}:${pad(minutes % 60)}`;
};

const plainText = (v: unknown) => (isBlank(v) ? '' : v instanceof Date ? v.toISOString() : String(v));

const numberFormats = new Map<number, Intl.NumberFormat>();
/** Grouped thousands and a fixed number of decimals; one formatter per number of decimals (creating one is slow). */
function numberFormat(decimals: number) {
  let format = numberFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    numberFormats.set(decimals, format);
  }
  return format;
}

/** A cell as printed on paper: times in the tenant's zone, numbers with the column's decimals, durations h:mm. */
export function printedCell(column: ExportColumn, value: unknown, wall: (d: Date) => Date): string {
  if (isBlank(value)) return '';
  switch (column.type) {
    case 'integer':
    case 'decimal': {
      const n = numberOf(value);
      return n === null ? plainText(value) : numberFormat(decimalsOf(column)).format(n);
    }
    case 'duration': {
      const n = numberOf(value);
      return n === null ? plainText(value) : durationText(n);
    }
    case 'datetime':
    case 'date': {
      const d = instantOf(value);
      return d ? wallText(wall(d), column.type === 'datetime') : plainText(value);
    }
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 'Yes' : 'No') : plainText(value);
    default:
      return plainText(value);
  }
}

/** A cell's value for exceljs: a Date (wall-clock), a number, an Excel duration (days), a boolean, or text. */
export function spreadsheetCell(column: ExportColumn, value: unknown, wall: (d: Date) => Date): unknown {
  if (isBlank(value)) return null;
  switch (column.type) {
    case 'integer':
    case 'decimal':
      return numberOf(value) ?? plainText(value);
    case 'duration': {
      const hours = numberOf(value);
      return hours === null ? plainText(value) : hours / 24;
    }
    case 'datetime':
    case 'date': {
      const d = instantOf(value);
      return d ? wall(d) : plainText(value);
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : value === 'Yes' ? true : value === 'No' ? false : plainText(value);
    default:
      return plainText(value);
  }
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const labelOf = (key: string) => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};
function filterValue(value: unknown, wall: (d: Date) => Date): string {
  if (Array.isArray(value)) return value.map((v) => filterValue(v, wall)).join(', ');
  if (typeof value === 'string' && ISO_TIME.test(value)) {
    const d = instantOf(value);
    if (d) return wallText(wall(d));
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The filters an export was asked with, as label and value (times in the tenant's zone), for the PDF's title. */
export function describeFilters(params: unknown, wall: (d: Date) => Date): Array<[string, string]> {
  if (params === null || typeof params !== 'object') return [];
  return Object.entries(params as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => [labelOf(k), filterValue(v, wall).slice(0, 200)]);
}
