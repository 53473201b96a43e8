import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { createGzip } from 'node:zlib';
import { tarFolder } from './tar-folder.ts';

/** Archives and compresses one folder into one file (see archiveFolder). */
const { folder, file } = workerData as { folder: string; file: string };
try {
  await pipeline(tarFolder(folder), createGzip({ level: 1, chunkSize: 1 << 20 }), createWriteStream(file));
  parentPort?.postMessage({ ok: true });
} catch (error) {
  const { message, code } = error as NodeJS.ErrnoException;
  parentPort?.postMessage({ ok: false, message, code });
}
