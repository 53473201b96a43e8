import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import {
  BURST_FROM,
  holdYoungGeneration,
  nextHold,
  QUIET_BELOW,
  shouldTrim,
  TRIM_GROWTH_BYTES,
  TRIM_MIN_GAP_MS,
  trimHeap,
} from './idle-memory.ts';

const MB = 1024 * 1024;
const quiet = { busy: 0.02, heapBytes: 400 * MB, heapAfterTrim: 0, sinceTrim: Number.POSITIVE_INFINITY };

describe('shouldTrim', () => {
  it('trims a quiet process whose heap has grown, the first time at once', () => {
    expect(shouldTrim(quiet)).toBe(true);
  });

  it('leaves a busy process alone', () => {
    expect(shouldTrim({ ...quiet, busy: QUIET_BELOW })).toBe(false);
    expect(shouldTrim({ ...quiet, busy: 0.8 })).toBe(false);
  });

  it('waits until the heap has grown enough since the last trim', () => {
    const after = { ...quiet, heapAfterTrim: 200 * MB, sinceTrim: TRIM_MIN_GAP_MS };
    expect(shouldTrim({ ...after, heapBytes: 200 * MB + TRIM_GROWTH_BYTES - 1 })).toBe(false);
    expect(shouldTrim({ ...after, heapBytes: 200 * MB + TRIM_GROWTH_BYTES })).toBe(true);
  });

  it('trims at most once in the minimum gap', () => {
    expect(shouldTrim({ ...quiet, heapAfterTrim: 100 * MB, sinceTrim: TRIM_MIN_GAP_MS - 1 })).toBe(false);
  });
});

describe('nextHold', () => {
  it('holds the young generation from a quiet window on', () => {
    expect(nextHold(false, { busy: 0.02, window: 'trim' })).toBe(true);
    expect(nextHold(true, { busy: 0.02, window: 'trim' })).toBe(true);
  });

  it('lets it grow after a window that is not quiet', () => {
    expect(nextHold(true, { busy: QUIET_BELOW, window: 'trim' })).toBe(false);
  });

  it('lets it grow after one second of burst, and a quiet second alone never starts a hold', () => {
    expect(nextHold(true, { busy: BURST_FROM, window: 'burst' })).toBe(false);
    expect(nextHold(true, { busy: BURST_FROM - 0.01, window: 'burst' })).toBe(true);
    expect(nextHold(false, { busy: 0, window: 'burst' })).toBe(false);
  });
});

const youngBytes = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.physical_space_size ?? 0;
/** Short-lived garbage with a share that survives a scavenge or two makes V8 grow the young generation. */
function churn() {
  let keep: object[] = [];
  for (let i = 0; i < 2_000_000; i++) {
    keep.push({ i, s: `item ${i}` });
    if (keep.length > 200_000) keep = [];
  }
  return keep.length;
}

describe('trimHeap and holdYoungGeneration', () => {
  it('a trim shrinks a grown young generation, and held it stays small under the same garbage', () => {
    const kept = churn();
    const grown = youngBytes();
    const { before, after, ms } = trimHeap();
    expect(after).toBeLessThan(before);
    expect(youngBytes()).toBeLessThan(grown);
    expect(ms).toBeGreaterThan(0);
    expect(kept).toBeGreaterThan(0);

    let held = 0;
    holdYoungGeneration(true);
    try {
      churn();
      held = youngBytes();
    } finally {
      holdYoungGeneration(false);
    }
    expect(held).toBeLessThan(grown);
    churn();
    expect(youngBytes()).toBeGreaterThan(held);
  });
});
