/**
 * One CSV cell, safe to open in a spreadsheet: a value starting with = + - @ tab or CR is prefixed with an
 * apostrophe so it is not run as a formula, and a value with a quote, comma or line break is quoted.
 */
export function csvCell(value: unknown): string {
  const raw = value === null || value === undefined ? '' : String(value);
  const text = /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
