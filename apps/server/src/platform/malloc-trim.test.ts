import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./malloc-trim.ts', import.meta.url));

/**
 * In a process of its own (the resident set is the whole process's): 180 MB of 60 KB buffers, of which every other one
 * is then freed. Each freed block lies between two live ones, so malloc can neither merge it into the top of its heap
 * nor give it back by itself: only the release returns those pages. V8 frees a collected buffer's memory on a
 * background thread, which may come after a given release, so the release follows each of a few collections, and only
 * what the releases themselves gave back is counted.
 */
const SCRIPT = `
  import { loadMallocTrim, releaseMallocFreePages } from ${JSON.stringify(MODULE)};
  const rss = () => process.memoryUsage().rss;
  const loaded = await loadMallocTrim();
  let freed = [];
  const kept = [];
  for (let i = 0; i < 1500; i++) {
    freed.push(Buffer.allocUnsafeSlow(60_000).fill(1));
    kept.push(Buffer.allocUnsafeSlow(60_000).fill(1));
  }
  freed = [];
  let returned = 0;
  let released = true;
  for (let round = 0; round < 20 && returned <= 50 * 1024 * 1024; round++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = rss();
    released &&= releaseMallocFreePages();
    returned += before - rss();
  }
  console.log(JSON.stringify({ loaded, released, returned, kept: kept.length }));
`;

describe('releaseMallocFreePages', () => {
  it.runIf(process.platform === 'linux')('gives the pages freed between live blocks back to the system', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' },
    });
    const r = JSON.parse(out) as { loaded: boolean; released: boolean; returned: number; kept: number };
    expect(r).toMatchObject({ loaded: true, released: true, kept: 1500 });
    expect(r.returned).toBeGreaterThan(50 * 1024 * 1024);
  });
});
