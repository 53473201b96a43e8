/**
 * Column widths of an export's PDF table, so that every column is on paper. Each column wants its widest content
 * (header or cell) and needs at least its longest word (pdfmake wraps text at spaces, and breaks a longer word where
 * it must); the key column (the first) is never wrapped, numbers and times only when nothing else fits. The widths of A4 landscape are shared out in this order:
 * 1. the largest type size at which every column gets what it wants;
 * 2. else the largest at which every column gets what it needs (numbers and times whole, then wrapped too), the
 *    rest shared in proportion to what is missing;
 * 3. else the columns are split over several page sets, each starting with the key column, at the smallest size.
 * Widths are measured once at 1000 units and scaled: text width is linear in the type size.
 */

export interface LayoutColumn {
  header: string;
  /** Numbers and times are kept on one line, as the key column is. */
  nowrap?: boolean;
}
export type Measure = (text: string, bold: boolean) => number;

export interface ColumnGroup {
  /** Indexes into the export's columns; every group after the first starts with the key column (0). */
  columns: number[];
  widths: number[];
}
export interface TableLayout {
  fontSize: number;
  groups: ColumnGroup[];
}

/** A4 landscape (841.89 pt) less the page margins. */
export const PAGE_MARGIN = 24;
const USABLE_WIDTH = 841.89 - 2 * PAGE_MARGIN - 1;
/** Left and right padding of a cell (the table's layout). */
export const CELL_PADDING = 3;
const MIN_WIDTH = 18;
/** A word longer than this (at 1000 units: about 70 pt at 7 pt type) is broken rather than widening its column. */
const LONGEST_WORD = 10_000;
const KEY_WIDEST = 30_000;
export const FONT_SIZES = [7, 6.5, 6, 5.5] as const;

interface Wants {
  natural: number;
  /** The least width when wrapped at spaces. */
  word: number;
  /** The least width when kept on one line (the key column, numbers and times), else `word`. */
  firm: number;
}

function wantsOf(columns: readonly LayoutColumn[], rows: readonly string[][], measure: Measure): Wants[] {
  return columns.map((column, i) => {
    const key = i === 0;
    let natural = measure(column.header, true);
    let word = 0;
    let whole = 0;
    for (const w of column.header.split(/\s+/)) word = Math.max(word, measure(w, true));
    for (const row of rows) {
      const text = row[i] ?? '';
      if (text === '') continue;
      const width = measure(text, false);
      if (width > natural) natural = width;
      whole = Math.max(whole, Math.min(width, KEY_WIDEST));
      if (width > word) for (const w of text.split(/\s+/)) word = Math.max(word, Math.min(measure(w, false), LONGEST_WORD));
    }
    if (key) word = Math.max(word, whole);
    return { natural, word, firm: key || column.nowrap ? Math.max(word, whole) : word };
  });
}

/** Widths for `indexes` at `size` within the page, or null when their minimums do not fit. */
function fit(wants: readonly Wants[], indexes: readonly number[], size: number, needOnly: boolean, firm = false): number[] | null {
  const scale = size / 1000;
  // pdfmake's line breaking measures with kerning and rounding of its own: a little room so a measured fit fits
  const slack = (w: number) => w * 1.03 + 1;
  const room = USABLE_WIDTH - indexes.length * 2 * CELL_PADDING;
  const min = indexes.map((i) => Math.max(MIN_WIDTH, slack((firm ? (wants[i] as Wants).firm : (wants[i] as Wants).word) * scale)));
  const nat = indexes.map((i, k) => Math.max(min[k] as number, slack((wants[i] as Wants).natural * scale)));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  if (sum(nat) <= room) return nat;
  if (!needOnly || sum(min) > room) return null;
  const missing = nat.map((n, k) => n - (min[k] as number));
  const share = (room - sum(min)) / sum(missing);
  return min.map((m, k) => m + (missing[k] as number) * share);
}

export function layoutTable(columns: readonly LayoutColumn[], rows: readonly string[][], measure: Measure): TableLayout {
  const wants = wantsOf(columns, rows, measure);
  const all = columns.map((_, i) => i);
  // all they want; else all they need with numbers and times on one line; else with those wrapped too
  for (const [needOnly, firm] of [
    [false, false],
    [true, true],
    [true, false],
  ] as const)
    for (const size of FONT_SIZES) {
      const widths = fit(wants, all, size, needOnly, firm);
      if (widths) return { fontSize: size, groups: [{ columns: all, widths }] };
    }
  const size: number = FONT_SIZES[FONT_SIZES.length - 1] ?? 6;
  const groups: ColumnGroup[] = [];
  let next = 0;
  while (next < columns.length) {
    const group = groups.length === 0 ? [] : [0];
    // at least one new column per page set, however wide
    group.push(next++);
    while (next < columns.length && fit(wants, [...group, next], size, true)) group.push(next++);
    const widths = fit(wants, group, size, true) ?? group.map(() => (USABLE_WIDTH - group.length * 2 * CELL_PADDING) / group.length);
    groups.push({ columns: group, widths });
  }
  return { fontSize: size, groups };
}

/** A measure of Helvetica text from the font's own metrics (a width table per font, built once). */
export function helveticaMeasure(widthOf: (text: string, bold: boolean) => number): Measure {
  const tables = [false, true].map((bold) => {
    const table = new Float64Array(256);
    for (let c = 32; c < 256; c++) table[c] = widthOf(String.fromCharCode(c), bold);
    return table;
  });
  const fallback = [widthOf('n', false), widthOf('n', true)];
  return (text, bold) => {
    const table = tables[bold ? 1 : 0] as Float64Array;
    let width = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      width += c < 256 ? (table[c] as number) : (fallback[bold ? 1 : 0] as number);
    }
    return width;
  };
}
