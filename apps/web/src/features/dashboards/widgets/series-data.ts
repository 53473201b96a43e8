/** One line of a chart: a device key's points, times in epoch milliseconds. */
export interface SeriesPoints {
  label: string;
  points: ReadonlyArray<{ ts: number; value: number | null }>;
}

/**
 * uPlot's data: one shared x array (seconds, ascending) and one y array per series, null where a series has no
 * point at that time. Series that share their timestamps (the usual case: one device, several keys) cost no search.
 */
export function alignSeries(series: readonly SeriesPoints[]): [number[], ...(number | null)[][]] {
  if (series.length === 0) return [[]];
  if (series.length === 1) {
    const only = series[0]?.points ?? [];
    const xs = new Array<number>(only.length);
    const ys = new Array<number | null>(only.length);
    for (let i = 0; i < only.length; i++) {
      const p = only[i] as { ts: number; value: number | null };
      xs[i] = p.ts / 1000;
      ys[i] = p.value;
    }
    return [xs, ys];
  }
  const times = new Set<number>();
  for (const s of series) for (const p of s.points) times.add(p.ts);
  const sorted = [...times].sort((a, b) => a - b);
  const index = new Map(sorted.map((ts, i) => [ts, i]));
  const ys = series.map((s) => {
    const row = new Array<number | null>(sorted.length).fill(null);
    for (const p of s.points) row[index.get(p.ts) as number] = p.value;
    return row;
  });
  return [sorted.map((ts) => ts / 1000), ...ys];
}

/** Appends pushed points to a series (newer than its last one only), keeping at most `max` points. */
export function appendPoints(
  points: ReadonlyArray<{ ts: number; value: number | null }>,
  fresh: ReadonlyArray<{ ts: number; value: number | null }>,
  max: number,
): Array<{ ts: number; value: number | null }> {
  const last = points.length ? (points[points.length - 1] as { ts: number }).ts : Number.NEGATIVE_INFINITY;
  const newer = fresh.filter((p) => p.ts > last).sort((a, b) => a.ts - b.ts);
  if (newer.length === 0) return points as Array<{ ts: number; value: number | null }>;
  const all = [...points, ...newer];
  return all.length > max ? all.slice(all.length - max) : all;
}

/** Series colours that read on the dark and the light theme. */
export const SERIES_COLORS = ['#4fc3f7', '#ffb74d', '#81c784', '#e57373', '#ba68c8', '#fff176', '#4db6ac', '#f06292'];
