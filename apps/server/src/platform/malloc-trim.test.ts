import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./malloc-trim.ts', import.meta.url));

/**
 * In a process of its own (the resident set is the whole process's): 90 MB of 60 KB buffers, each followed by a
 * small one that stays, so that freeing the large ones leaves holes malloc keeps; then the release.
 */
const SCRIPT = `
  import { loadMallocTrim, releaseMallocFreePages } from ${JSON.stringify(MODULE)};
  const rss = () => process.memoryUsage().rss;
  const loaded = await loadMallocTrim();
  let large = [];
  const kept = [];
  for (let i = 0; i < 1500; i++) {
    large.push(Buffer.allocUnsafeSlow(60_000).fill(1));
    kept.push(Buffer.allocUnsafeSlow(64));
  }
  large = [];
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const freed = rss();
  const released = releaseMallocFreePages();
  console.log(JSON.stringify({ loaded, released, freed, after: rss(), kept: kept.length }));
`;

describe('releaseMallocFreePages', () => {
  it.runIf(process.platform === 'linux')('gives the pages freed between live blocks back to the system', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', SCRIPT], {
      encoding: 'utf8',
      env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' },
    });
    const r = JSON.parse(out) as { loaded: boolean; released: boolean; freed: number; after: number; kept: number };
    expect(r).toMatchObject({ loaded: true, released: true, kept: 1500 });
    expect(r.freed - r.after).toBeGreaterThan(50 * 1024 * 1024);
  });
});
