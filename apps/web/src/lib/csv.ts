import { csvCell } from '@sitewatch/contracts/csv';

/** CSV files made in the browser from rows the page already has or fetches page by page (cells: csvCell). */
export interface CsvColumn<T> {
  header: string;
  value(row: T): unknown;
}

export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Saves text as a file named `{name}.csv`. */
export function downloadCsv(name: string, csv: string) {
  const url = URL.createObjectURL(new Blob([`\uFEFF${csv}`], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${name}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Fetches every page of a list (up to `max` rows) for an export. */
export async function fetchAll<T>(
  fetchPage: (page: number, limit: number) => Promise<{ contents: T[]; totalCount: number }>,
  opts: { pageSize?: number; max?: number } = {},
): Promise<T[]> {
  const pageSize = opts.pageSize ?? 500;
  const max = opts.max ?? 10_000;
  const rows: T[] = [];
  for (let page = 1; rows.length < max; page++) {
    const { contents, totalCount } = await fetchPage(page, pageSize);
    rows.push(...contents);
    if (contents.length < pageSize || rows.length >= totalCount) break;
  }
  return rows.slice(0, max);
}
