import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { CSV_BOM, csvLine, type ExportFormat } from '@sitewatch/contracts';
import type ExcelJS from 'exceljs';
import { isNumeric, printedCell, spreadsheetCell, wallClock, wallText, xlsxFormat } from './cells.ts';
import type { FromPdfWorker, PdfJob, ToPdfWorker } from './pdf-worker.ts';
import type { ExportColumn } from './registry.ts';

/**
 * The file formats of an export. Each encoder takes the export's pages (rows keyed by column) as they are read and
 * yields the file's bytes, so the runner streams every format into the blob store the same way:
 * - CSV: one line per row, formula prefixes neutralised (`csvLine`);
 * - XLSX: exceljs's streaming WorkbookWriter (rows are committed and zipped as they come: memory stays bounded), cells
 *   typed by the column's declared type (dates in the tenant's time zone, numbers, durations) with number formats,
 *   a frozen header row and an autofilter;
 * - PDF: pdfmake, laid out in a worker thread (`pdf-worker.ts`: every column on paper); the document is built in
 *   memory, so a PDF holds at most `PDF_MAX_ROWS` rows.
 * CSV keeps the raw values (ISO UTC times); XLSX and PDF show times in the tenant's time zone (`timeZone`).
 */
export const PDF_MAX_ROWS = 10_000;

export const FORMAT_INFO: Record<ExportFormat, { ext: string; contentType: string }> = {
  csv: { ext: 'csv', contentType: 'text/csv; charset=utf-8' },
  xlsx: { ext: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pdf: { ext: 'pdf', contentType: 'application/pdf' },
};

export type Pages = AsyncIterable<Array<Record<string, unknown>>>;
export interface Document {
  title: string;
  columns: readonly ExportColumn[];
  /** IANA zone of the tenant: times in XLSX and PDF are its wall-clock times. UTC when not given. */
  timeZone?: string;
  /** The filters the export was asked with, as label and value, printed under the PDF's title. */
  filters?: ReadonlyArray<readonly [string, string]>;
}

async function* csv(doc: Document, pages: Pages): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(doc.columns.map((c) => c.header));
  for await (const rows of pages) {
    let chunk = '';
    for (const r of rows) chunk += csvLine(doc.columns.map((c) => r[c.key]));
    if (chunk) yield chunk;
  }
}

const ZIP_BACKLOG = 1024 * 1024;
/** A stream of the zip (readable-stream's, inside exceljs and archiver): how much is written to it and not yet read. */
interface ZipInput {
  _writableState?: { length?: number; ended?: boolean };
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  removeListener(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}
/** The stream of the zip that the sheet's XML goes into (internal to exceljs: if it is not found, nothing waits). */
function zipBacklog(sheet: ExcelJS.Worksheet): { behind(): boolean; caughtUp(): Promise<void> } | undefined {
  const pipe = (sheet as unknown as { stream?: { pipes?: ZipInput[] } }).stream?.pipes?.[0];
  if (!pipe || typeof pipe._writableState?.length !== 'number') return undefined;
  return {
    behind: () => !pipe._writableState?.ended && (pipe._writableState?.length ?? 0) > ZIP_BACKLOG,
    caughtUp: () =>
      new Promise((resolve) => {
        const done = () => {
          for (const event of ['drain', 'close', 'error'] as const) pipe.removeListener(event, done);
          resolve();
        };
        for (const event of ['drain', 'close', 'error'] as const) pipe.once(event, done);
      }),
  };
}

/** Characters of the widest of the header and the first rows' values, within bounds: the sheet's column widths. */
function columnWidths(doc: Document, sample: Array<Record<string, unknown>>, wall: (d: Date) => Date) {
  return doc.columns.map((c) => {
    let widest = c.header.length + 3; // room for the autofilter's button
    for (const r of sample.slice(0, 200)) widest = Math.max(widest, printedCell(c, r[c.key], wall).length + 1);
    return Math.min(60, Math.max(8, widest));
  });
}

async function* xlsx(doc: Document, pages: Pages): AsyncGenerator<Uint8Array> {
  const out = new PassThrough();
  // Loaded with the first workbook: exceljs is several megabytes of heap that most processes never use.
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(doc.title.slice(0, 31).replace(/[[\]*?/\\:]/g, ' ') || 'Report', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const wall = wallClock(doc.timeZone ?? 'UTC');
  // One style object per column, shared by all its cells: exceljs looks a style up by identity, so a shared object
  // costs a map lookup per cell where a fresh one per cell cost several times the rows themselves.
  const styles = doc.columns.map((c) => {
    const numFmt = xlsxFormat(c);
    return numFmt ? { numFmt } : {};
  });
  const headerStyle = { font: { bold: true } };
  let failure: unknown = null;
  const producer = (async () => {
    let started = false;
    const start = (sample: Array<Record<string, unknown>>) => {
      started = true;
      const widths = columnWidths(doc, sample, wall);
      sheet.columns = doc.columns.map((c, i) => ({ header: c.header, key: c.key, width: widths[i] }));
      sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, doc.columns.length) } };
      const header = sheet.getRow(1);
      header.eachCell((cell) => {
        cell.style = headerStyle;
      });
      header.commit();
    };
    for await (const rows of pages) {
      if (!started) start(rows);
      for (const r of rows) {
        const row = sheet.addRow(doc.columns.map((c) => spreadsheetCell(c, r[c.key], wall)));
        for (let i = 0; i < styles.length; i++) row.getCell(i + 1).style = styles[i] as Partial<ExcelJS.Style>;
        row.commit();
      }
      // Let the file writer take what was zipped so far before the next page is read.
      await new Promise((resolve) => setImmediate(resolve));
      if (out.writableLength > 256 * 1024) await new Promise((resolve) => out.once('drain', resolve));
      // exceljs writes the sheet's XML into the zip without waiting for it: left alone, a fast source piles up the
      // uncompressed rows (tens of MB for 100,000) in front of the compressor. Wait while it is behind.
      const backlog = zipBacklog(sheet);
      while (backlog?.behind()) await backlog.caughtUp();
    }
    if (!started) start([]);
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    failure = error;
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  for await (const chunk of out) yield chunk as Uint8Array;
  await producer;
  if (failure) throw failure;
}

/**
 * The layout runs in a worker thread (`pdf-worker.ts`): the rows go to it page by page as they are read, the file
 * comes back whole. The thread is ended after the document, on a failure and when the export is stopped.
 */
async function* pdf(doc: Document, pages: Pages, generatedAt: Date, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  signal?.throwIfAborted();
  const timeZone = doc.timeZone ?? 'UTC';
  const wall = wallClock(timeZone);
  const job: PdfJob = {
    title: doc.title,
    columns: doc.columns.map((c) => ({
      header: c.header,
      numeric: isNumeric(c.type),
      nowrap: c.type !== 'text',
    })),
    exportedAt: `${wallText(wall(generatedAt))} (${timeZone})`,
    filters: (doc.filters ?? []).map(([label, value]) => `${label}: ${value}`).join(' · '),
    maxRows: PDF_MAX_ROWS,
  };
  const worker = new Worker(new URL('./pdf-worker.ts', import.meta.url), { workerData: { pdfJob: job }, execArgv: workerExecArgv() });
  const onAbort = () => void worker.terminate();
  const file = new Promise<Uint8Array>((resolve, reject) => {
    worker.once('message', (message: FromPdfWorker) => ('pdf' in message ? resolve(message.pdf) : reject(new Error(message.error))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(signal?.aborted ? signal.reason : new Error(`PDF layout ended early (exit code ${code})`)));
  });
  file.catch(() => {}); // awaited below unless the pages fail first
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let rows = 0;
    let truncated = false;
    for await (const page of pages) {
      signal?.throwIfAborted();
      const batch: string[][] = [];
      for (const r of page) {
        if (rows >= PDF_MAX_ROWS) {
          truncated = true;
          break;
        }
        batch.push(doc.columns.map((c) => printedCell(c, r[c.key], wall)));
        rows++;
      }
      if (batch.length > 0) worker.postMessage({ rows: batch } satisfies ToPdfWorker);
      if (truncated) break;
    }
    worker.postMessage({ end: true, rows, truncated } satisfies ToPdfWorker);
    yield await file;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await worker.terminate();
  }
}

/**
 * The worker loads a `.ts` file: it gets the module loader flags of this process (`--import tsx`), not its
 * process-wide ones (`--expose-gc`, heap sizes), which a worker refuses; without a loader (the test runner) Node's own
 * type stripping reads the file.
 */
const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader', '--conditions', '-C']);
function workerExecArgv() {
  const args: string[] = [];
  let value = false;
  for (const arg of process.execArgv) {
    if (value || LOADER_FLAGS.has(arg.split('=', 1)[0] ?? arg)) args.push(arg);
    value = !value && LOADER_FLAGS.has(arg);
  }
  return args;
}

/** The bytes of a document in a format, read page by page from `pages`; `signal` stops the PDF layout at once. */
export function encode(
  format: ExportFormat,
  doc: Document,
  pages: Pages,
  now = new Date(),
  signal?: AbortSignal,
): AsyncIterable<Uint8Array | string> {
  if (format === 'xlsx') return xlsx(doc, pages);
  if (format === 'pdf') return pdf(doc, pages, now, signal);
  return csv(doc, pages);
}
