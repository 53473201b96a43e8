import { describe, expect, it, vi } from 'vitest';
import { cameraModeFor, createRangeStore, normalizeRange, selectionToRange, ticketRangeFilter } from './range-sync.ts';

describe('chart range selection', () => {
  it('turns a uPlot drag (pixels, seconds) into an ordered range in milliseconds', () => {
    const posToVal = (px: number) => 1_700_000_000 + px * 10;
    expect(selectionToRange({ left: 10, width: 30 }, posToVal)).toEqual({ from: 1_700_000_100_000, to: 1_700_000_400_000 });
    expect(selectionToRange({ left: 10, width: 0 }, posToVal)).toBeNull();
  });

  it('ignores selections narrower than a second and orders reversed ends', () => {
    expect(normalizeRange({ from: 5000, to: 5400 })).toBeNull();
    expect(normalizeRange({ from: 9000, to: 2000 })).toEqual({ from: 2000, to: 9000 });
    expect(normalizeRange({ from: Number.NaN, to: 2000 })).toBeNull();
  });

  it('notifies subscribers only when the range really changes, and back to live', () => {
    const store = createRangeStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.select({ from: 0, to: 60_000 });
    store.select({ from: 0, to: 60_000 });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get()).toEqual({ from: 0, to: 60_000 });
    store.select(null);
    expect(store.get()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('moves cameras to playback of the past part of the range, live otherwise', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(cameraModeFor(null, now)).toEqual({ kind: 'live' });
    expect(cameraModeFor({ from: now + 1000, to: now + 5000 }, now)).toEqual({ kind: 'live' });
    expect(cameraModeFor({ from: now - 600_000, to: now + 600_000 }, now)).toEqual({
      kind: 'playback',
      from: '2026-01-01T11:50:00.000Z',
      to: '2026-01-01T12:00:00.000Z',
    });
  });

  it('filters ticket widgets to the selected range', () => {
    expect(ticketRangeFilter(null)).toEqual({});
    expect(ticketRangeFilter({ from: 0, to: 1000 })).toEqual({ from: '1970-01-01T00:00:00.000Z', to: '1970-01-01T00:00:01.000Z' });
  });
});
