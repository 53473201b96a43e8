import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A small blob store port: files by key. The local implementation keeps them under a folder (DATA_DIR/blobs);
 * an S3-compatible one can implement the same four calls. Keys are built by the server, never taken from a
 * request: they are still checked so that no key can leave the root.
 */
export interface BlobStore {
  put(key: string, data: Buffer): Promise<void>;
  /**
   * Streams data into the blob without holding it in memory; the blob appears only once complete (an aborted or
   * failed write leaves nothing). Returns the size in bytes.
   */
  write(key: string, source: AsyncIterable<Uint8Array | string>, signal?: AbortSignal): Promise<number>;
  /** A stream of the blob, or null when it does not exist. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  delete(key: string): Promise<void>;
  /**
   * Removes partial files (`.part`) left by a write that never finished (the process died mid-export) and not
   * touched for `olderThanMs`: a write in progress keeps touching its file, so it is never taken. Returns how many.
   */
  sweepPartial(olderThanMs: number): Promise<number>;
}

/** The temporary name of a blob being written: `{final}.{pid}.{ms}.part`. */
const PARTIAL = /\.\d+\.\d+\.part$/;

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Joins key segments after checking each one: letters, digits, dot, dash and underscore, no leading dot. */
export function blobKey(...segments: Array<string | number>): string {
  const parts = segments.map(String);
  for (const part of parts) if (!SEGMENT.test(part)) throw new Error(`invalid blob key segment: ${part}`);
  return parts.join('/');
}

export function createLocalBlobStore(root: string): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const parts = key.split('/');
    if (parts.length === 0 || parts.some((p) => !SEGMENT.test(p))) throw new Error('invalid blob key');
    const path = resolve(join(base, ...parts));
    if (!path.startsWith(base + sep)) throw new Error('invalid blob key');
    return path;
  };
  return {
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Write then rename, so that a reader never sees half a file.
      const temp = `${path}.${process.pid}.${Date.now()}.part`;
      await writeFile(temp, data);
      await rename(temp, path);
    },
    async write(key, source, signal) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.${Date.now()}.part`;
      const out = createWriteStream(temp);
      try {
        await pipeline(Readable.from(source), out, signal ? { signal } : {});
        await rename(temp, path);
        return out.bytesWritten;
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async open(key) {
      const path = pathOf(key);
      try {
        const info = await stat(path);
        return { stream: createReadStream(path), size: info.size };
      } catch {
        return null;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async sweepPartial(olderThanMs) {
      const cutoff = Date.now() - olderThanMs;
      let removed = 0;
      let entries: string[];
      try {
        entries = await readdir(base, { recursive: true });
      } catch {
        return 0; // nothing written yet
      }
      for (const entry of entries) {
        if (!PARTIAL.test(entry)) continue;
        const path = join(base, entry);
        const info = await stat(path).catch(() => null);
        if (!info?.isFile() || info.mtimeMs > cutoff) continue;
        await rm(path, { force: true });
        removed++;
      }
      return removed;
    },
  };
}
