import { createContext, useContext, useSyncExternalStore } from 'react';

/** A time range chosen on a chart, in epoch milliseconds. */
export interface TimeRange {
  from: number;
  to: number;
}

/** Selections narrower than this (a click, a jitter) do not move the dashboard out of live. */
export const MIN_SELECTION_MS = 1000;

/**
 * The range selected on a chart of one dashboard: camera tiles play back from it, ticket widgets are filtered to it.
 * `null` means live. One store per dashboard on screen, so two dashboards never steer each other.
 */
export interface RangeStore {
  get(): TimeRange | null;
  select(range: TimeRange | null): void;
  subscribe(listener: () => void): () => void;
}

export function createRangeStore(): RangeStore {
  let current: TimeRange | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    select(range) {
      const next = range ? normalizeRange(range) : null;
      if (sameRange(current, next)) return;
      current = next;
      for (const fn of listeners) fn();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function sameRange(a: TimeRange | null, b: TimeRange | null): boolean {
  if (a === null || b === null) return a === b;
  return a.from === b.from && a.to === b.to;
}

/** Orders the ends, rounds to whole milliseconds; a selection narrower than MIN_SELECTION_MS is no selection. */
export function normalizeRange(range: TimeRange): TimeRange | null {
  if (!Number.isFinite(range.from) || !Number.isFinite(range.to)) return null;
  const from = Math.round(Math.min(range.from, range.to));
  const to = Math.round(Math.max(range.from, range.to));
  return to - from < MIN_SELECTION_MS ? null : { from, to };
}

/**
 * A uPlot drag selection (pixels on the plot) as a time range: `posToVal` gives the x scale's value (seconds, as
 * uPlot keeps time) at a pixel. Null when nothing was dragged.
 */
export function selectionToRange(select: { left: number; width: number }, posToVal: (px: number) => number): TimeRange | null {
  if (!(select.width > 0)) return null;
  return normalizeRange({ from: posToVal(select.left) * 1000, to: posToVal(select.left + select.width) * 1000 });
}

/** What a camera tile shows: live, or the recording of the selected range (never ending in the future). */
export type CameraMode = { kind: 'live' } | { kind: 'playback'; from: string; to: string };

export function cameraModeFor(range: TimeRange | null, now = Date.now()): CameraMode {
  if (!range || range.from >= now) return { kind: 'live' };
  return { kind: 'playback', from: new Date(range.from).toISOString(), to: new Date(Math.min(range.to, now)).toISOString() };
}

/** The created-at filter ticket widgets add while a range is selected (the server's ticket filter names). */
export function ticketRangeFilter(range: TimeRange | null): { from?: string; to?: string } {
  if (!range) return {};
  return { from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() };
}

const fallbackStore = createRangeStore();
export const RangeContext = createContext<RangeStore>(fallbackStore);

/** The dashboard's selected range (null: live), re-rendering when it changes. */
export function useSelectedRange(): TimeRange | null {
  const store = useContext(RangeContext);
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

export const useRangeStore = () => useContext(RangeContext);
