/** The ticket dashboard's daily trend: one entry per UTC day of the range, days without tickets included. */
export interface DayCount {
  day: string;
  created: number;
  resolved: number;
}

const DAY_MS = 86_400_000;
const MAX_DAYS = 400;

export function dailySeries(perDay: readonly DayCount[], from: string, to: string): DayCount[] {
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  const start = Math.floor(Date.parse(from) / DAY_MS) * DAY_MS;
  const end = Math.floor(Date.parse(to) / DAY_MS) * DAY_MS;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return [...perDay];
  const out: DayCount[] = [];
  for (let t = Math.max(start, end - (MAX_DAYS - 1) * DAY_MS); t <= end; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    out.push(byDay.get(day) ?? { day, created: 0, resolved: 0 });
  }
  return out;
}

/** Bar heights in pixels for a chart `height` tall, scaled to the busiest day; a day with none has no bar. */
export function barHeights(days: readonly DayCount[], height: number) {
  const max = Math.max(1, ...days.flatMap((d) => [d.created, d.resolved]));
  return days.map((d) => ({ day: d.day, created: (height * d.created) / max, resolved: (height * d.resolved) / max }));
}
