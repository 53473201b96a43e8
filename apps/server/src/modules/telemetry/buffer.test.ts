import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIngestBuffer } from './buffer.ts';

/** Waits without giving the event loop a turn, as a loop busy with sockets does. */
function busyFor(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* spin */
  }
}

describe('ingest buffer flush interval', () => {
  // The flush timer never fires by itself here: as when libuv keeps polling thousands of busy sockets.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes a batch whose interval passed when the next message arrives, without its timer', async () => {
    const written: number[][] = [];
    const buffer = createIngestBuffer<number>({
      capacity: 1000,
      batchSize: 100,
      flushIntervalMs: 20,
      sink: async (items) => {
        written.push([...items]);
      },
    });
    const first = buffer.addNow(1);
    buffer.addNow(2);
    expect(written).toEqual([]);
    busyFor(25);
    expect(written).toEqual([]);
    const third = buffer.addNow(3);
    expect(written).toEqual([[1, 2, 3]]);
    await expect(first).resolves.toBeUndefined();
    await expect(third).resolves.toBeUndefined();
    // a message within the interval waits for it, as before
    buffer.addNow(4);
    buffer.addNow(5);
    expect(written).toHaveLength(1);
  });

  it('keeps the backoff of a failed write while messages keep arriving', async () => {
    let calls = 0;
    const buffer = createIngestBuffer<number>({
      capacity: 1000,
      batchSize: 100,
      flushIntervalMs: 5,
      sink: async () => {
        calls++;
        throw new Error('database away');
      },
    });
    buffer.addNow(1);
    busyFor(10);
    buffer.addNow(2);
    expect(calls).toBe(1);
    for (let i = 0; i < 20 && buffer.stats().failures === 0; i++) await Promise.resolve();
    expect(buffer.stats().failures).toBe(1);
    busyFor(10);
    buffer.addNow(3);
    expect(calls).toBe(1);
  });
});
