import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';

const BLOCK = 512;
/** Large reads: each chunk waits for a turn of the event loop, which the embedded database shares. */
const CHUNK = 1 << 20;

/** One ustar header; names are `/`-rooted like PGlite's own dump of its data folder, which `loadDataDir` reads. */
function header(name: string, size: number, mode: number, mtime: number, type: '0' | '5'): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`${name} is too long a name for the backup's archive`);
  const block = Buffer.alloc(BLOCK);
  const octal = (value: number, at: number, width: number) => block.write(`${value.toString(8).padStart(width - 1, '0')}\0`, at, 'ascii');
  block.write(name, 0, 'utf8');
  octal(mode & 0o7777, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(Math.floor(mtime / 1000), 136, 12);
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0' + '00', 257, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

async function* entries(root: string, relative: string): AsyncGenerator<Buffer> {
  const listing = (await readdir(join(root, relative), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of listing) {
    const path = `${relative}/${entry.name}`;
    const info = await stat(join(root, path));
    if (entry.isDirectory()) {
      yield header(path, 0, info.mode, info.mtimeMs, '5');
      yield* entries(root, path);
    } else if (entry.isFile()) {
      yield header(path, info.size, info.mode, info.mtimeMs, '0');
      let written = 0;
      if (info.size > 0) {
        for await (const chunk of createReadStream(join(root, path), { end: info.size - 1, highWaterMark: CHUNK })) {
          written += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
      }
      if (written !== info.size) throw new Error(`${path} changed while it was archived`);
      if (info.size % BLOCK) yield Buffer.alloc(BLOCK - (info.size % BLOCK));
    }
  }
}

/** A tar archive of a folder's files and subfolders, read as it streams (nothing of it is held in memory). */
export function tarFolder(root: string): Readable {
  return Readable.from(
    (async function* () {
      yield* entries(root, '');
      yield Buffer.alloc(BLOCK * 2);
    })(),
    { objectMode: false, highWaterMark: CHUNK },
  );
}

/**
 * Writes a gzipped tar of `folder` into `file` on a worker thread: the embedded database runs its statements on the
 * main thread, and a busy database must not starve the archive (nor the archive the requests).
 */
export function archiveFolder(folder: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./archive-worker.ts', import.meta.url), { workerData: { folder, file } });
    let answered = false;
    worker.once('message', (answer: { ok: boolean; message?: string; code?: string }) => {
      answered = true;
      if (answer.ok) resolve();
      else reject(Object.assign(new Error(answer.message), { code: answer.code }));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`archiving the database stopped (exit ${code})`));
    });
  });
}
