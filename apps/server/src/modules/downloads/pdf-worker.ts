/**
 * The PDF layout of an export, run in a worker thread: pdfmake lays a whole document out in one synchronous pass
 * (seconds for 10,000 rows), which on the main thread would stop every request, timer and job meanwhile.
 *
 * The thread receives `{ rows }` messages (cells already as text) as the export reads its pages, then `{ end }`
 * with the row count; it answers with `{ pdf }` (the file's bytes) or `{ error }`, and is ended by the
 * caller after that. Only node builtins, pdfmake, pdfkit (the fonts' metrics) and the layout are imported, with erasable types only, so the file loads under
 * tsx and under Node's own type stripping alike.
 */
import { parentPort, workerData } from 'node:worker_threads';
import PDFDocument from 'pdfkit';
import pdfmake from 'pdfmake';
import { CELL_PADDING, helveticaMeasure, layoutTable, PAGE_MARGIN, type TableLayout } from './pdf-layout.ts';

export interface PdfJob {
  title: string;
  /** In file order; the first is the key column, repeated on continuation page sets. */
  columns: Array<{ header: string; numeric: boolean; nowrap: boolean }>;
  /** When the export was made, as printed: the tenant's local time and zone. */
  exportedAt: string;
  /** The filters, printed under the title ('' for none). */
  filters: string;
  maxRows: number;
}
export type ToPdfWorker = { rows: string[][] } | { end: true; rows: number; truncated: boolean };
export type FromPdfWorker = { pdf: Uint8Array } | { error: string };

const HELVETICA = { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' };
const STANDARD_FONTS = new Set(Object.values(HELVETICA));

/** pdfmake with the PDF standard fonts only, and no file or network access from a document. */
export function usePdfmake() {
  pdfmake.setFonts({ Helvetica: HELVETICA });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path) => STANDARD_FONTS.has(path));
  return pdfmake;
}

let measure: ReturnType<typeof helveticaMeasure> | undefined;
/** Text width at 1000 units from the metrics of the fonts pdfmake draws with. */
function measureText() {
  if (!measure) {
    const metrics = new PDFDocument({ autoFirstPage: false }).fontSize(1000);
    measure = helveticaMeasure((text, bold) => metrics.font(bold ? HELVETICA.bold : HELVETICA.normal).widthOfString(text));
  }
  return measure;
}

const TABLE_LAYOUT = {
  hLineWidth: (i: number) => (i === 0 ? 0 : 0.5),
  vLineWidth: () => 0,
  hLineColor: (i: number) => (i === 1 ? '#555555' : '#cccccc'),
  paddingLeft: () => CELL_PADDING,
  paddingRight: () => CELL_PADDING,
  paddingTop: () => 2,
  paddingBottom: () => 2,
  fillColor: (i: number) => (i === 0 ? '#eeeeee' : null),
};

/**
 * The export as a PDF: a title with the time of export and the filters, then one table per page set (see
 * `pdf-layout.ts`; usually one) whose header row repeats on every page, numbers right-aligned, and page numbers.
 */
export function pdfDefinition(job: PdfJob, rows: string[][], count: number, truncated: boolean, layout?: TableLayout) {
  const table = layout ?? layoutTable(job.columns, rows, measureText());
  const sets = table.groups.length;
  const content: unknown[] = [
    { text: job.title, fontSize: 13, bold: true, margin: [0, 0, 0, 4] },
    {
      text: `Exported ${job.exportedAt} · ${count} rows${truncated ? ` (first ${job.maxRows}; export CSV or XLSX for all)` : ''}`,
      color: '#444444',
      fontSize: 8,
    },
    { text: `Filters: ${job.filters || 'none'}`, color: '#444444', fontSize: 8, margin: [0, 2, 0, sets > 1 ? 2 : 8] },
  ];
  if (sets > 1)
    content.push({
      text: `${job.columns.length} columns on ${sets} page sets; ${job.columns[0]?.header ?? 'the first column'} is repeated on each.`,
      color: '#444444',
      fontSize: 8,
      margin: [0, 0, 0, 8],
    });
  table.groups.forEach((group, g) => {
    const first = (group.columns[g > 0 ? 1 : 0] ?? 0) + 1;
    const last = (group.columns.at(-1) ?? 0) + 1;
    if (sets > 1)
      content.push({
        text: `Columns ${g > 0 ? '1 and ' : ''}${first === last ? first : `${first}–${last}`} of ${job.columns.length}`,
        bold: true,
        fontSize: 9,
        margin: [0, 0, 0, 4],
        ...(g > 0 ? { pageBreak: 'before' } : {}),
      });
    const right = group.columns.map((i) => job.columns[i]?.numeric === true);
    const body: unknown[][] = [
      group.columns.map((i, k) => ({ text: job.columns[i]?.header ?? '', bold: true, alignment: right[k] ? 'right' : 'left' })),
    ];
    for (const row of rows)
      body.push(group.columns.map((i, k) => (right[k] ? { text: row[i] ?? '', alignment: 'right' } : (row[i] ?? ''))));
    content.push({ table: { headerRows: 1, widths: group.widths, body }, layout: TABLE_LAYOUT, fontSize: table.fontSize });
  });
  return {
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [PAGE_MARGIN, 30, PAGE_MARGIN, 30],
    defaultStyle: { font: 'Helvetica', fontSize: 7 },
    info: { title: job.title },
    content,
    footer: (current: number, pages: number) => ({
      columns: [
        { text: job.title, fontSize: 7, color: '#666666' },
        { text: `Page ${current} of ${pages}`, alignment: 'right', fontSize: 7 },
      ],
      margin: [PAGE_MARGIN, 8],
    }),
  };
}

const port = parentPort;
if (port && workerData?.pdfJob) {
  const job = workerData.pdfJob as PdfJob;
  const pdf = usePdfmake();
  const rows: string[][] = [];
  port.on('message', (message: ToPdfWorker) => {
    if (!('end' in message)) {
      for (const row of message.rows) rows.push(row);
      return;
    }
    pdf
      .createPdf(pdfDefinition(job, rows, message.rows, message.truncated))
      .getBuffer()
      .then((pdf) => port.postMessage({ pdf } satisfies FromPdfWorker))
      .catch((error: unknown) =>
        port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies FromPdfWorker),
      );
  });
}
