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

  const recording = (flushIntervalMs: number) => {
    const written: number[][] = [];
    const buffer = createIngestBuffer<number>({
      capacity: 1000,
      batchSize: 100,
      flushIntervalMs,
      sink: async (items) => {
        written.push([...items]);
      },
    });
    return { buffer, written };
  };

  it('writes a batch whose interval passed when the next message arrives, without its timer', async () => {
    const { buffer, written } = recording(100);
    const first = buffer.addNow(1);
    buffer.addNow(2);
    expect(written).toEqual([]);
    busyFor(110);
    expect(written).toEqual([]);
    const third = buffer.addNow(3);
    expect(written).toEqual([[1, 2, 3]]);
    await expect(first).resolves.toBeUndefined();
    await expect(third).resolves.toBeUndefined();
  });

  it('keeps a message within the interval waiting for it', () => {
    const { buffer, written } = recording(60_000);
    buffer.addNow(1);
    busyFor(5);
    buffer.addNow(2);
    expect(written).toEqual([]);
  });

  it('keeps the backoff of a failed write while messages keep arriving', async () => {
    let calls = 0;
    const buffer = createIngestBuffer<number>({
      capacity: 1000,
      batchSize: 100,
      flushIntervalMs: 20,
      sink: async () => {
        calls++;
        throw new Error('database away');
      },
    });
    buffer.addNow(1);
    busyFor(30);
    buffer.addNow(2);
    expect(calls).toBe(1);
    for (let i = 0; i < 20 && buffer.stats().failures === 0; i++) await Promise.resolve();
    expect(buffer.stats().failures).toBe(1);
    busyFor(30);
    buffer.addNow(3);
    expect(calls).toBe(1);
  });
});
