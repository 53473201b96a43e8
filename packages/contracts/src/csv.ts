/** The one CSV writer of the product (server exports; the web's CSV downloads use it too). */
/** Excel and friends run a cell that starts with one of these as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A byte-order mark so that spreadsheet programs read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/**
 * One CSV cell: trimmed (SPEC 5), a text that a spreadsheet would run as a formula prefixed with a quote,
 * quoted when it holds a separator, a quote or a line break. Numbers and booleans are written as they are.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  let text: string;
  if (value instanceof Date) text = Number.isNaN(value.getTime()) ? '' : value.toISOString();
  else if (Array.isArray(value)) text = value.map((v) => (v === null || v === undefined ? '' : String(v))).join('; ');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  text = text.trim();
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (values: readonly unknown[]) => `${values.map(csvCell).join(',')}\r\n`;
