import { PassThrough } from 'node:stream';
import { CSV_BOM, csvLine, type ExportFormat } from '@sitewatch/contracts';
import ExcelJS from 'exceljs';
import pdfmake from 'pdfmake';
import type { ExportColumn } from './registry.ts';

/**
 * The file formats of an export. Each encoder takes the export's pages (rows keyed by column) as they are read and
 * yields the file's bytes, so the runner streams every format into the blob store the same way:
 * - CSV: one line per row, formula prefixes neutralised (`csvLine`);
 * - XLSX: exceljs's streaming WorkbookWriter (rows are committed and zipped as they come: memory stays bounded);
 * - PDF: pdfmake, a landscape table whose header repeats on every page; the document is built in memory, so a PDF
 *   holds at most `PDF_MAX_ROWS` rows.
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
}

const HELVETICA = { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' };
const STANDARD_FONTS = new Set(Object.values(HELVETICA));
pdfmake.setFonts({ Helvetica: HELVETICA });
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => STANDARD_FONTS.has(path));

const asText = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v));
const asCell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'number' || v instanceof Date ? v : String(v));

async function* csv(doc: Document, pages: Pages): AsyncGenerator<string> {
  yield CSV_BOM + csvLine(doc.columns.map((c) => c.header));
  for await (const rows of pages) {
    let chunk = '';
    for (const r of rows) chunk += csvLine(doc.columns.map((c) => r[c.key]));
    if (chunk) yield chunk;
  }
}

async function* xlsx(doc: Document, pages: Pages): AsyncGenerator<Uint8Array> {
  const out = new PassThrough();
  // No styles: exceljs's per-cell style bookkeeping costs several times the time and memory of the rows themselves.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(doc.title.slice(0, 31).replace(/[[\]*?/\\:]/g, ' ') || 'Report', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = doc.columns.map((c) => ({ header: c.header, key: c.key, width: Math.min(40, Math.max(10, c.header.length + 4)) }));
  sheet.getRow(1).commit();
  let failure: unknown = null;
  const producer = (async () => {
    for await (const rows of pages) {
      for (const r of rows) sheet.addRow(doc.columns.map((c) => asCell(r[c.key]))).commit();
      // Let the file writer take what was zipped so far before the next page is read.
      await new Promise((resolve) => setImmediate(resolve));
      if (out.writableLength > 256 * 1024) await new Promise((resolve) => out.once('drain', resolve));
    }
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

async function* pdf(doc: Document, pages: Pages, generatedAt: Date): AsyncGenerator<Uint8Array> {
  const body: unknown[][] = [doc.columns.map((c) => ({ text: c.header, bold: true }))];
  let rows = 0;
  let truncated = false;
  outer: for await (const page of pages) {
    for (const r of page) {
      if (rows >= PDF_MAX_ROWS) {
        truncated = true;
        break outer;
      }
      body.push(doc.columns.map((c) => asText(r[c.key])));
      rows++;
    }
  }
  const definition = {
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [24, 36, 24, 36],
    defaultStyle: { font: 'Helvetica', fontSize: 7 },
    info: { title: doc.title },
    content: [
      { text: doc.title, fontSize: 13, bold: true, margin: [0, 0, 0, 4] },
      {
        text: `Generated ${generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC · ${rows} rows${truncated ? ` (first ${PDF_MAX_ROWS}; export CSV or XLSX for all)` : ''}`,
        color: '#555555',
        margin: [0, 0, 0, 8],
      },
      {
        table: { headerRows: 1, widths: doc.columns.map(() => '*'), body },
        layout: 'lightHorizontalLines',
      },
    ],
    footer: (current: number, count: number) => ({ text: `${current} / ${count}`, alignment: 'right', margin: [24, 8], fontSize: 7 }),
  };
  yield await pdfmake.createPdf(definition).getBuffer();
}

/** The bytes of a document in a format, read page by page from `pages`. */
export function encode(format: ExportFormat, doc: Document, pages: Pages, now = new Date()): AsyncIterable<Uint8Array | string> {
  if (format === 'xlsx') return xlsx(doc, pages);
  if (format === 'pdf') return pdf(doc, pages, now);
  return csv(doc, pages);
}
