import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyBaseLogger } from 'fastify';

/** How often the process looks at whether it has gone quiet. */
export const TRIM_CHECK_MS = 15_000;
/** Quiet: the event loop was busy less than this share of the last check's window. */
export const QUIET_BELOW = 0.1;
/** Worth a trim: the heap holds this much more memory than right after the last trim. */
export const TRIM_GROWTH_BYTES = 32 * 1024 * 1024;
/** At most one trim in this time, however the load comes and goes. */
export const TRIM_MIN_GAP_MS = 120_000;

export interface TrimState {
  /** Share of the window the event loop was busy (0..1). */
  busy: number;
  /** V8 heap memory resident now, and right after the last trim (0 before the first). */
  heapBytes: number;
  heapAfterTrim: number;
  /** Milliseconds since the last trim (Infinity before the first). */
  sinceTrim: number;
}

/** Trims when the process is quiet, its heap has grown since the last trim and the last one is not too recent. */
export const shouldTrim = (s: TrimState) =>
  s.busy < QUIET_BELOW && s.heapBytes - s.heapAfterTrim >= TRIM_GROWTH_BYTES && s.sinceTrim >= TRIM_MIN_GAP_MS;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let collect: Collect | undefined;

/**
 * One memory-reducing collection: the young generation shrinks back to its first size and the old one is compacted.
 * V8's `gc` is exposed in a context of its own, so the process's global scope stays as it was.
 */
export function trimHeap(): { before: number; after: number; ms: number } {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  const before = getHeapStatistics().total_physical_size;
  const started = performance.now();
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  return { before, after: getHeapStatistics().total_physical_size, ms: performance.now() - started };
}

/**
 * Gives memory back when the process goes quiet. The young generation is sized for bursts (`npm start` runs with
 * `--max-semi-space-size=64` for ingest) and V8 keeps its pages once they have grown: idle with the demo running,
 * about 100 MB of it stays resident with under 10 MB in use, and V8's own memory reducer does not step in while the
 * simulated devices keep allocating. A trim takes about 0.3 s, once per quiet period; the young generation grows
 * again as soon as load comes back.
 */
export function createIdleMemoryTrim(log: Pick<FastifyBaseLogger, 'debug'>) {
  let timer: NodeJS.Timeout | undefined;
  let window = performance.eventLoopUtilization();
  let heapAfterTrim = 0;
  let trimmedAt = Number.NEGATIVE_INFINITY;

  function check() {
    const busy = performance.eventLoopUtilization(window).utilization;
    const now = performance.now();
    const state = { busy, heapBytes: getHeapStatistics().total_physical_size, heapAfterTrim, sinceTrim: now - trimmedAt };
    if (shouldTrim(state)) {
      const { before, after, ms } = trimHeap();
      heapAfterTrim = after;
      trimmedAt = performance.now();
      const mb = (bytes: number) => Math.round(bytes / 1048576);
      log.debug(`memory trimmed while quiet: heap ${mb(before)} MB to ${mb(after)} MB (${Math.round(ms)} ms)`);
    }
    window = performance.eventLoopUtilization();
  }

  return {
    start() {
      window = performance.eventLoopUtilization();
      timer = setInterval(check, TRIM_CHECK_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
