import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DownloadJob } from '@sitewatch/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printedCell, wallClock } from '../src/modules/downloads/cells.ts';
import { encode } from '../src/modules/downloads/formats.ts';
import type { ExportColumn, ExportSource } from '../src/modules/downloads/registry.ts';
import { createTestApp, type TestApp, type TestClient } from './support/harness.ts';

/**
 * Every export kind the product registers, written as PDF and XLSX and read back by tools nobody here wrote:
 * Poppler's pdftotext for the PDF's own text, exceljs for the workbook's cells.
 */

let t: TestApp;
let admin: TestClient;
let dir: string;
let sources: ExportSource[];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('customeradmin');
  dir = mkdtempSync(join(tmpdir(), 'sw-export-files-'));
  sources = t.handles.downloads.exports.sources().filter((s) => !s.kind.startsWith('test-'));
});
afterAll(async () => {
  await t?.close();
  if (dir && !process.env.KEEP_EXPORT_FILES) rmSync(dir, { recursive: true, force: true });
});

/** The columns of a kind as a run would have them: a form's export adds one column per field. */
function columnsOf(source: ExportSource): ExportColumn[] {
  const fields = source.columnsFor
    ? Array.from({ length: 8 }, (_, i) => ({
        key: `field:q${i}`,
        header: `Question number ${i + 1} of the inspection`,
        type: 'text' as const,
      }))
    : [];
  return [...source.columns, ...fields];
}

const WORDS = 'pump room north wing inspection overdue valve pressure reading flagged by the night shift'.split(' ');
/** Wide values of a declared type; the key column (the first) gets a cell that names its row. */
function wideValue(kind: string, column: ExportColumn, index: number, row: number): unknown {
  if (index === 0 && column.type === 'text') return `K-${kind}-${String(row).padStart(3, '0')}`;
  if (index === 0 && column.type === 'integer') return 9_000_000 + row;
  switch (column.type) {
    case 'integer':
      return 1_234_567 + row;
    case 'decimal':
      return 98_765.4321 + row;
    case 'datetime':
    case 'date':
      return new Date(Date.UTC(2026, 2, 1, 8, 30) + row * 3_600_000).toISOString();
    case 'duration':
      return 7.75 + row / 60;
    case 'boolean':
      return row % 2 === 0 ? 'Yes' : 'No';
    default:
      // long text for some columns, a long unbroken token (a user agent, JSON) for others
      return index % 3 === 0
        ? `{"before":"${'x'.repeat(80)}","row":${row}}`
        : Array.from({ length: 4 + ((index * 7 + row) % 18) }, (_, w) => WORDS[(w + row + index) % WORDS.length]).join(' ');
  }
}

function wideRows(source: ExportSource, columns: ExportColumn[], count: number) {
  return Array.from({ length: count }, (_, row) => Object.fromEntries(columns.map((c, i) => [c.key, wideValue(source.kind, c, i, row)])));
}

async function* onePage(rows: Array<Record<string, unknown>>) {
  yield rows;
}

async function file(bytes: AsyncIterable<Uint8Array | string>) {
  const chunks: Buffer[] = [];
  for await (const chunk of bytes) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The PDF's text as Poppler reads it, whitespace (including where a cell wraps) as single spaces. */
function pdfText(pdf: Buffer, name: string) {
  const path = join(dir, `${name}.pdf`);
  writeFileSync(path, pdf);
  const raw = execFileSync('pdftotext', ['-raw', path, '-'], { encoding: 'utf8' });
  const pages = raw.split('\f').filter((p) => p.trim() !== '').length;
  return { text: raw.replace(/\s+/g, ' '), lines: raw.split('\n'), pages, raw };
}

const ZONE = 'Asia/Kolkata';

describe('PDF exports', () => {
  it('has every kind registered (13)', () => {
    expect(sources.map((s) => s.kind).sort()).toHaveLength(13);
  });

  it('puts every column header and every row key of every kind on paper, with title, filters and page numbers', {
    timeout: 240_000,
  }, async () => {
    for (const source of sources) {
      const columns = columnsOf(source);
      const rows = wideRows(source, columns, 60);
      const doc = { title: `${source.label} export`, columns, timeZone: ZONE, filters: [['Status', 'Open'] as const] };
      const pdf = await file(encode('pdf', doc, onePage(rows), new Date('2026-03-01T08:30:00Z')));
      const { text, lines, pages, raw } = pdfText(pdf, source.kind);
      for (const c of columns) expect(text, `${source.kind}: header ${c.header}`).toContain(c.header);
      const key = columns[0] as ExportColumn;
      for (const r of rows) {
        const cell = printedCell(key, r[key.key], wallClock(ZONE));
        expect(
          lines.some((line) => line.includes(cell)),
          `${source.kind}: row ${cell}`,
        ).toBe(true);
      }
      expect(text).toContain(`${source.label} export`);
      expect(text).toContain('Exported 2026-03-01 14:00 (Asia/Kolkata)');
      expect(text).toContain('Filters: Status: Open');
      expect(text).toContain(`Page ${pages} of ${pages}`);
      // the header row is repeated on every page: every page has the key column's header
      for (const page of raw.split('\f').filter((p) => p.trim() !== ''))
        expect(page.replace(/\s+/g, ' '), source.kind).toContain(key.header);
    }
  });

  it('right-aligns numbers with a fixed number of decimals and prints times in the tenant zone', async () => {
    const columns: ExportColumn[] = [
      { key: 'id', header: 'ID', type: 'text' },
      { key: 'cost', header: 'Unit cost', type: 'decimal' },
      { key: 'at', header: 'Created', type: 'datetime' },
      { key: 'hours', header: 'Hours', type: 'duration' },
    ];
    const rows = [{ id: 'A-1', cost: 5, at: '2026-03-01T20:00:00Z', hours: 7.5 }];
    const pdf = await file(encode('pdf', { title: 'Numbers', columns, timeZone: ZONE }, onePage(rows)));
    const { text } = pdfText(pdf, 'numbers');
    expect(text).toContain('A-1 5.00 2026-03-02 01:30 7:30');
  });

  it('spreads a table too wide for one page over page sets that each repeat the key column', async () => {
    const columns: ExportColumn[] = Array.from({ length: 40 }, (_, i) => ({ key: `c${i}`, header: `Column header ${i}`, type: 'text' }));
    const rows = Array.from({ length: 5 }, (_, r) =>
      Object.fromEntries(columns.map((c, i) => [c.key, i === 0 ? `KEY-${r}` : `value ${i} ${r} wide`])),
    );
    const pdf = await file(encode('pdf', { title: 'Wide', columns }, onePage(rows)));
    const { text } = pdfText(pdf, 'wide');
    for (const c of columns) expect(text).toContain(c.header);
    expect(text).toMatch(/40 columns on \d page sets; Column header 0 is repeated on each/);
    const sets = Number(/on (\d) page sets/.exec(text)?.[1]);
    expect(sets).toBeGreaterThan(1);
    expect(text.split('KEY-4 ').length - 1).toBe(sets);
  });
});

const CELL_TYPE: Record<ExportColumn['type'], ExcelJS.ValueType> = {
  text: ExcelJS.ValueType.String,
  integer: ExcelJS.ValueType.Number,
  decimal: ExcelJS.ValueType.Number,
  duration: ExcelJS.ValueType.Number,
  datetime: ExcelJS.ValueType.Date,
  date: ExcelJS.ValueType.Date,
  boolean: ExcelJS.ValueType.Boolean,
};

async function workbookOf(bytes: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook.worksheets[0] as ExcelJS.Worksheet;
}

/** Each data cell's type against its column's declared type; number formats on typed cells. */
function expectTyped(sheet: ExcelJS.Worksheet, columns: readonly ExportColumn[], label: string) {
  let checked = 0;
  sheet.eachRow((row, n) => {
    if (n === 1) return;
    columns.forEach((c, i) => {
      const cell = row.getCell(i + 1);
      if (cell.type === ExcelJS.ValueType.Null) return;
      // exceljs reads any number under a time format as a date; a duration is a number of days under [h]:mm
      const type = c.type === 'duration' && cell.type === ExcelJS.ValueType.Date ? ExcelJS.ValueType.Number : cell.type;
      expect(type, `${label} ${c.header} row ${n}`).toBe(CELL_TYPE[c.type]);
      if (c.type !== 'text' && c.type !== 'boolean') expect(cell.numFmt, `${label} ${c.header}`).toBeTruthy();
      if (c.type === 'duration') expect(cell.numFmt).toBe('[h]:mm');
      checked++;
    });
  });
  return checked;
}

describe('XLSX exports', () => {
  it('types every column of every kind as declared, with a frozen header, an autofilter and widths', { timeout: 120_000 }, async () => {
    for (const source of sources) {
      const columns = columnsOf(source);
      const rows = wideRows(source, columns, 20);
      const sheet = await workbookOf(await file(encode('xlsx', { title: source.label, columns, timeZone: ZONE }, onePage(rows))));
      expect((sheet.getRow(1).values as unknown[]).slice(1), source.kind).toEqual(columns.map((c) => c.header));
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(sheet.autoFilter, source.kind).toBeTruthy();
      sheet.columns.forEach((column, i) => {
        expect(column.width ?? 9 /* exceljs leaves its default width out */, `${source.kind} column ${i + 1}`).toBeGreaterThanOrEqual(8);
      });
      expect(expectTyped(sheet, columns, source.kind)).toBe(20 * columns.length);
      const at = columns.findIndex((c) => c.type === 'datetime');
      // 2026-03-01 08:30 UTC is 14:00 in Kolkata: the cell holds the tenant's wall-clock time
      if (at >= 0) expect((sheet.getRow(2).getCell(at + 1).value as Date).toISOString()).toBe('2026-03-01T14:00:00.000Z');
    }
  });

  it('writes the real rows of each kind with the declared cell types, in the tenant time zone', { timeout: 120_000 }, async () => {
    expect((await admin.put('/iotapp/customer-settings/', { timeZone: ZONE })).statusCode).toBeLessThan(300);
    const ticket = await admin.post('/helpdesk/tickets/', { title: 'Export check', event: 'Power Failure' });
    expect(ticket.statusCode, ticket.body).toBeLessThan(300);
    let typedCells = 0;
    for (const kind of ['tickets', 'users', 'sign-ins', 'user-activity-logs', 'site-summary', 'devices', 'purchase-requests']) {
      const source = sources.find((s) => s.kind === kind) as ExportSource;
      const res = await admin.post('/api/exports/', { kind, format: 'xlsx', params: {} });
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(201);
      const job = res.json() as DownloadJob;
      await t.app.jobs.drain();
      const list = (await admin.get('/api/batch-playback-download/')).json() as { jobs: DownloadJob[] };
      const done = list.jobs.find((j) => j.jobId === job.jobId);
      expect(done?.status, kind).toBe('ready-to-download');
      const bytes = (await admin.get(done?.tasks[0]?.path as string)).rawPayload;
      const sheet = await workbookOf(bytes);
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(source.columns.map((c) => c.header));
      typedCells += expectTyped(sheet, source.columns, kind);
    }
    expect(typedCells).toBeGreaterThan(20);
  });
});
