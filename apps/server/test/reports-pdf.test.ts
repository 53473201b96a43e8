import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encode, PDF_MAX_ROWS } from '../src/modules/downloads/formats.ts';
import { pdfDefinition, usePdfmake } from '../src/modules/downloads/pdf-worker.ts';

const columns = [
  { key: 'code', header: 'Code', type: 'text' },
  { key: 'name', header: 'Item', type: 'text' },
  { key: 'qty', header: 'Quantity', type: 'integer' },
] as const;
const generatedAt = new Date('2026-03-01T08:30:00Z');

async function* pages(total: number, pageSize = 100, failAt = Number.POSITIVE_INFINITY) {
  for (let offset = 0; offset < total; offset += pageSize) {
    if (offset >= failAt) throw new Error('source unavailable');
    yield Array.from({ length: Math.min(pageSize, total - offset) }, (_, i) => ({
      code: `GEN-${offset + i}`,
      name: `Oil filter ${offset + i}`,
      qty: offset + i,
    }));
  }
}

async function collect(bytes: AsyncIterable<Uint8Array | string>) {
  const chunks: Buffer[] = [];
  for await (const chunk of bytes) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** A PDF's drawn content (its inflated streams), without the creation time and file id that differ each run. */
function content(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const streams: string[] = [];
  for (const match of text.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const raw = Buffer.from(match[1] ?? '', 'latin1');
    try {
      streams.push(inflateSync(raw).toString('latin1'));
    } catch {
      streams.push(raw.toString('latin1'));
    }
  }
  return streams;
}

describe('PDF export in a worker thread', () => {
  it('lays out the same document the exporting thread would', async () => {
    const rows = Array.from(await collectRows(250));
    const fromWorker = await collect(encode('pdf', { title: 'Stock', columns }, pages(250), generatedAt));
    expect(fromWorker.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const job = {
      title: 'Stock',
      columns: columns.map((c) => ({ header: c.header, numeric: c.type === 'integer', nowrap: c.type !== 'text' })),
      exportedAt: '2026-03-01 08:30 (UTC)',
      filters: '',
      maxRows: PDF_MAX_ROWS,
    };
    const inThread = await usePdfmake()
      .createPdf(pdfDefinition(job, rows, rows.length, false))
      .getBuffer();
    const drawn = content(fromWorker);
    expect(drawn.length).toBeGreaterThan(3);
    expect(drawn).toEqual(content(inThread));
  });

  it('passes a failure of the rows on, and ends the thread', async () => {
    await expect(collect(encode('pdf', { title: 'Stock', columns }, pages(1000, 100, 300), generatedAt))).rejects.toThrow(
      'source unavailable',
    );
  });

  it('stops the layout at once when the export is stopped', async () => {
    const controller = new AbortController();
    const reason = new Error('export stopped');
    const started = Date.now();
    const file = collect(encode('pdf', { title: 'Stock', columns }, pages(PDF_MAX_ROWS, 1000), generatedAt, controller.signal));
    setTimeout(() => controller.abort(reason), 300);
    await expect(file).rejects.toBe(reason);
    // laying out 10,000 rows takes seconds; a stop does not wait for it
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

async function collectRows(total: number) {
  const rows: string[][] = [];
  for await (const page of pages(total))
    for (const r of page) rows.push(columns.map((c) => (c.type === 'integer' ? r[c.key].toLocaleString('en-US') : String(r[c.key]))));
  return rows;
}
