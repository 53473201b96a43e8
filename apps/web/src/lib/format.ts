import { BYTE_UNITS } from '@sitewatch/contracts/constants';

/** SPEC 9: byte sizes run from Bytes to YiB in steps of 1024. */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const index = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), BYTE_UNITS.length - 1);
  const value = bytes / 1024 ** index;
  const rounded = index === 0 ? String(Math.round(value)) : String(Number.parseFloat(value.toFixed(Math.max(0, decimals))));
  return `${rounded} ${BYTE_UNITS[index]}`;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** A date and time in the user's locale; '' for a missing or invalid value. */
export function formatDateTime(value: string | number | Date | null | undefined, locale?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** "5 minutes ago" style, falling back to the absolute time beyond a week. */
export function formatRelative(value: string | number | Date, now: number = Date.now(), locale?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Number.isNaN(seconds)) return '';
  const abs = Math.abs(seconds);
  if (abs > 7 * 86_400) return formatDateTime(date, locale);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (abs < 60) return rtf.format(seconds, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86_400), 'day');
}

/** A short description of a browser from its user-agent string (sessions list). */
export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : '';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Android/.test(ua)
      ? 'Android'
      : /iPhone|iPad|iOS/.test(ua)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  if (!browser && !os) return ua.slice(0, 60);
  return [browser, os].filter(Boolean).join(' on ');
}

/** "1 camera", "6 cameras", "1,204 sites": a count with its noun in the right number (plural by default noun + s). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? singular : plural}`;
}
