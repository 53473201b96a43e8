/**
 * Report files at volume: a 10,000-row PDF (goal ≤ 15 s) and a 100,000-row XLSX (goal ≤ 20 s, ≤ 200 MB), written
 * through the export encoders into the blob store exactly as the export runner does (pages of 1,000 rows of the
 * stock movements report). Prints time, file size and the peak RSS and heap seen while each file was written.
 *
 *   node --expose-gc --import tsx bench/reports/run.ts   (ROWS_PDF=10000 ROWS_XLSX=100000 by default)
 *   ONLY=xlsx or ONLY=pdf runs one of them, so its memory peak is its own (the process keeps memory it once took);
 *   ONLY=pdf-main lays the PDF out on the main thread as exports did before the worker thread, for comparison.
 * The event loop stall is the longest the main thread could not serve anything else (timers, requests).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isNumeric, printedCell, wallClock } from '../../apps/server/src/modules/downloads/cells.ts';
import { encode, PDF_MAX_ROWS } from '../../apps/server/src/modules/downloads/formats.ts';
import type { ExportColumn } from '../../apps/server/src/modules/downloads/registry.ts';
import { createLocalBlobStore } from '../../apps/server/src/platform/blobs.ts';

const ROWS_PDF = Number(process.env.ROWS_PDF ?? 10_000);
const ROWS_XLSX = Number(process.env.ROWS_XLSX ?? 100_000);
const PAGE = 1000;
const KINDS = ['Receive', 'Transfer', 'Issue', 'Return', 'Write-off'];

const columns: ExportColumn[] = [
  { key: 'createdAt', header: 'Date', type: 'datetime' },
  { key: 'kind', header: 'Type', type: 'text' },
  { key: 'itemCode', header: 'Code', type: 'text' },
  { key: 'itemName', header: 'Item', type: 'text' },
  { key: 'quantity', header: 'Quantity', type: 'integer' },
  { key: 'fromStore', header: 'From store', type: 'text' },
  { key: 'toStore', header: 'To store', type: 'text' },
  { key: 'ticketId', header: 'Ticket', type: 'integer' },
  { key: 'note', header: 'Note', type: 'text' },
];

async function* pages(total: number) {
  const start = Date.UTC(2026, 0, 1);
  for (let offset = 0; offset < total; offset += PAGE) {
    const rows = [];
    for (let i = offset; i < Math.min(total, offset + PAGE); i++) {
      rows.push({
        createdAt: new Date(start + i * 60_000).toISOString(),
        kind: KINDS[i % KINDS.length],
        itemCode: `GEN-FLT-${i % 500}`,
        itemName: `Generator oil filter ${i % 500}`,
        quantity: (i % 17) + 1,
        fromStore: i % 2 ? 'Central Store' : null,
        toStore: i % 2 ? null : `Site store ${i % 40}`,
        ticketId: i % 3 ? 10_000 + i : null,
        note: i % 5 ? '' : `Issued for preventive maintenance visit ${i}`,
      });
    }
    // a database page takes its time; yield so the writer runs as it would in the export job
    await new Promise((r) => setImmediate(r));
    yield rows;
  }
}

/** The PDF as it was made before the layout moved to a worker thread: pdfmake on this thread, for comparison. */
async function* pdfOnThisThread(total: number): AsyncGenerator<Uint8Array> {
  // loaded here only: pdfmake is not in the baseline of the other measures
  const { pdfDefinition, usePdfmake } = await import('../../apps/server/src/modules/downloads/pdf-worker.ts');
  const wall = wallClock('UTC');
  const body: string[][] = [];
  for await (const page of pages(total))
    for (const r of page) body.push(columns.map((c) => printedCell(c, r[c.key as keyof typeof r], wall)));
  const job = {
    title: 'Stock movements',
    columns: columns.map((c) => ({ header: c.header, numeric: isNumeric(c.type), nowrap: c.type !== 'text' })),
    exportedAt: new Date().toISOString(),
    filters: '',
    maxRows: PDF_MAX_ROWS,
  };
  yield await usePdfmake()
    .createPdf(pdfDefinition(job, body, total, false))
    .getBuffer();
}

async function measure(label: string, format: 'pdf' | 'xlsx' | 'pdf-main', rows: number, dir: string) {
  global.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 20);
  const blobs = createLocalBlobStore(dir);
  // The longest time the event loop could not run anything else (a request, a timer) while the file was written.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const bytes = format === 'pdf-main' ? pdfOnThisThread(rows) : encode(format, { title: 'Stock movements', columns }, pages(rows));
  const size = await blobs.write(`bench/${format}-${rows}`, bytes);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  loop.disable();
  const stallMs = loop.max / 1e6;
  clearInterval(sampler);
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
  console.log(
    `${label.padEnd(30)} ${seconds.toFixed(1).padStart(6)} s (CPU ${cpuSeconds.toFixed(1)} s)  ${mb(size).padStart(4)} MB file  peak RSS ${mb(peakRss)} MB (start ${mb(base.rss)}, +${mb(peakRss - base.rss)})  peak heap ${mb(peakHeap)} MB  event loop stall max ${stallMs.toFixed(0)} ms`,
  );
  return { seconds, peakRss, growth: peakRss - base.rss, stallMs };
}

const dir = mkdtempSync(join(tmpdir(), 'sw-bench-reports-'));
try {
  console.log(
    `machine load (1/5/15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const only = process.env.ONLY;
  if (only === 'pdf-main') await measure(`PDF ${ROWS_PDF} rows, this thread`, 'pdf-main', ROWS_PDF, dir);
  else if (only !== 'xlsx') {
    const pdf = await measure(`PDF ${ROWS_PDF} rows`, 'pdf', ROWS_PDF, dir);
    console.log(`goal PDF ≤ 15 s: ${pdf.seconds <= 15 ? 'met' : 'missed'}`);
  }
  if (only !== 'pdf' && only !== 'pdf-main') {
    const xlsx = await measure(`XLSX ${ROWS_XLSX} rows`, 'xlsx', ROWS_XLSX, dir);
    const limit = 200 * 1024 * 1024;
    console.log(
      `goal XLSX ≤ 20 s: ${xlsx.seconds <= 20 ? 'met' : 'missed'}; ≤ 200 MB: process peak RSS ${xlsx.peakRss <= limit ? 'met' : 'missed'}, growth while writing ${xlsx.growth <= limit ? 'met' : 'missed'}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
