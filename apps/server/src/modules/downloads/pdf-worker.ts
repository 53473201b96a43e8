/**
 * The PDF layout of an export, run in a worker thread: pdfmake lays a whole document out in one synchronous pass
 * (seconds for 10,000 rows), which on the main thread would stop every request, timer and job meanwhile.
 *
 * The thread receives `{ rows }` messages (cells already as text) as the export reads its pages, then `{ end }`
 * with the row count; it answers with `{ pdf }` (the file's bytes) or `{ error }`, and is ended by the
 * caller after that. Only node builtins and pdfmake are imported, with erasable types only, so the file loads under
 * tsx and under Node's own type stripping alike.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pdfmake from 'pdfmake';

export interface PdfJob {
  title: string;
  headers: string[];
  /** ISO time printed under the title. */
  generatedAt: string;
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

export function pdfDefinition(job: PdfJob, body: unknown[][], rows: number, truncated: boolean) {
  return {
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [24, 36, 24, 36],
    defaultStyle: { font: 'Helvetica', fontSize: 7 },
    info: { title: job.title },
    content: [
      { text: job.title, fontSize: 13, bold: true, margin: [0, 0, 0, 4] },
      {
        text: `Generated ${job.generatedAt.slice(0, 16).replace('T', ' ')} UTC · ${rows} rows${truncated ? ` (first ${job.maxRows}; export CSV or XLSX for all)` : ''}`,
        color: '#555555',
        margin: [0, 0, 0, 8],
      },
      {
        table: { headerRows: 1, widths: job.headers.map(() => '*'), body },
        layout: 'lightHorizontalLines',
      },
    ],
    footer: (current: number, count: number) => ({ text: `${current} / ${count}`, alignment: 'right', margin: [24, 8], fontSize: 7 }),
  };
}

const port = parentPort;
if (port && workerData?.pdfJob) {
  const job = workerData.pdfJob as PdfJob;
  const pdf = usePdfmake();
  const body: unknown[][] = [job.headers.map((text) => ({ text, bold: true }))];
  port.on('message', (message: ToPdfWorker) => {
    if (!('end' in message)) {
      for (const row of message.rows) body.push(row);
      return;
    }
    pdf
      .createPdf(pdfDefinition(job, body, message.rows, message.truncated))
      .getBuffer()
      .then((pdf) => port.postMessage({ pdf } satisfies FromPdfWorker))
      .catch((error: unknown) =>
        port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies FromPdfWorker),
      );
  });
}
