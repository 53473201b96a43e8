import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { FastifyBaseLogger } from 'fastify';
import { loadMallocTrim, releaseMallocFreePages } from './malloc-trim.ts';

/** How often the process looks at whether it has gone quiet. */
export const TRIM_CHECK_MS = 15_000;
/** Quiet: the event loop was busy less than this share of the last check's window. */
export const QUIET_BELOW = 0.1;
/** Worth a trim: the heap holds this much more memory than right after the last trim. */
export const TRIM_GROWTH_BYTES = 32 * 1024 * 1024;
/** At most one trim in this time, however the load comes and goes. */
export const TRIM_MIN_GAP_MS = 120_000;
/** How often the process looks for load coming back while the young generation is held small. */
export const BURST_CHECK_MS = 1000;
/** Load is back: the event loop was busy at least this share of one burst check's second. */
export const BURST_FROM = 0.5;
/** V8's own factor: a young generation that grows doubles. */
const YOUNG_GROWTH = 2;

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

/**
 * Whether the young generation is held at its size: from a quiet window on, until a window that is not quiet or a
 * second of burst (checked every `BURST_CHECK_MS`) lets it grow again.
 */
export function nextHold(held: boolean, check: { busy: number; window: 'trim' | 'burst' }): boolean {
  if (check.window === 'burst') return held && check.busy < BURST_FROM;
  return check.busy < QUIET_BELOW;
}

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
 * Held, the young generation keeps its size: V8 grows it when enough objects have survived its collections since it
 * last grew, however slowly they were allocated, and reads its growth factor each time it grows.
 */
export function holdYoungGeneration(hold: boolean) {
  setFlagsFromString(`--semi-space-growth-factor=${hold ? 1 : YOUNG_GROWTH}`);
}

/**
 * Gives memory back when the process goes quiet, and keeps it given back while it stays quiet. The young generation is
 * sized for bursts (`npm start` runs with `--max-semi-space-size=64` for ingest) and V8 keeps its pages once they have
 * grown; V8's own memory reducer does not step in while the simulated devices keep allocating (about 1.3 MB/s idle
 * with the demo), and those allocations alone grew it back from 2 MB to 32 MB within two minutes of a trim.
 * - A trim (about 0.3 s, at most every two minutes) shrinks the young generation and compacts the old one.
 * - While the process stays quiet the young generation is held at its size; a busy window, or one second of burst,
 *   lets it grow again at once.
 * - Every quiet window gives malloc's free pages back (malloc-trim.ts; about 1 ms with the demo).
 */
export function createIdleMemoryTrim(log: Pick<FastifyBaseLogger, 'debug'>) {
  let timer: NodeJS.Timeout | undefined;
  /** Event-loop readings at the start of the trim check's window and of the burst check's second. */
  let trimWindow = performance.eventLoopUtilization();
  let burstWindow = trimWindow;
  let ticks = 0;
  let heapAfterTrim = 0;
  let trimmedAt = Number.NEGATIVE_INFINITY;
  let held = false;

  function hold(next: boolean) {
    if (next === held) return;
    held = next;
    holdYoungGeneration(held);
    log.debug(held ? 'quiet: young generation held at its size' : 'load is back: young generation may grow');
  }

  function check() {
    const burst = performance.eventLoopUtilization(burstWindow).utilization;
    burstWindow = performance.eventLoopUtilization();
    hold(nextHold(held, { busy: burst, window: 'burst' }));
    if (++ticks < TRIM_CHECK_MS / BURST_CHECK_MS) return;
    ticks = 0;
    const busy = performance.eventLoopUtilization(trimWindow).utilization;
    const state = { busy, heapBytes: getHeapStatistics().total_physical_size, heapAfterTrim, sinceTrim: performance.now() - trimmedAt };
    if (shouldTrim(state)) {
      const { before, after, ms } = trimHeap();
      heapAfterTrim = after;
      trimmedAt = performance.now();
      const mb = (bytes: number) => Math.round(bytes / 1048576);
      log.debug(`memory trimmed while quiet: heap ${mb(before)} MB to ${mb(after)} MB (${Math.round(ms)} ms)`);
    }
    if (busy < QUIET_BELOW) releaseMallocFreePages();
    hold(nextHold(held, { busy, window: 'trim' }));
    trimWindow = performance.eventLoopUtilization();
  }

  return {
    start() {
      void loadMallocTrim();
      trimWindow = performance.eventLoopUtilization();
      burstWindow = trimWindow;
      timer = setInterval(check, BURST_CHECK_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      hold(false);
    },
  };
}
