import { describe, expect, it } from 'vitest';
import { createOfflineAsOf } from './offline-as-of.ts';

describe('offline "as of" time', () => {
  it('is there for a banner that mounts after the kept copies were served', () => {
    const asOf = createOfflineAsOf();
    asOf.served(1_000);
    asOf.served(3_000);
    // the banner mounts late (a slow phone, its chunk loading) and reads what was served before it
    expect(asOf.get()).toBe(1_000);
  });

  it('keeps the oldest copy served and tells the subscribers of each change', () => {
    const asOf = createOfflineAsOf();
    const seen: (number | null)[] = [];
    const stop = asOf.subscribe(() => seen.push(asOf.get()));
    asOf.served(5_000);
    asOf.served(2_000);
    asOf.served(9_000);
    expect(asOf.get()).toBe(2_000);
    expect(seen).toEqual([5_000, 2_000]);
    stop();
    asOf.served(1_000);
    expect(seen).toEqual([5_000, 2_000]);
  });

  it('starts again when the connection returns', () => {
    const asOf = createOfflineAsOf();
    asOf.served(2_000);
    asOf.clear();
    expect(asOf.get()).toBeNull();
    asOf.served(7_000);
    expect(asOf.get()).toBe(7_000);
  });
});
