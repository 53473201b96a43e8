import type { ScheduleFrequency } from '@sitewatch/contracts';

export interface Cadence {
  frequency: ScheduleFrequency;
  /** HH:MM, UTC. */
  time: string;
  dayOfWeek: number | null;
  dayOfMonth: number | null;
}

/** The first run of a schedule strictly after `after` (all in UTC; a monthly day is 1 … 28, so every month has it). */
export function nextRun(c: Cadence, after: Date): Date {
  const [hh, mm] = c.time.split(':').map(Number) as [number, number];
  const y = after.getUTCFullYear();
  const m = after.getUTCMonth();
  const d = after.getUTCDate();
  if (c.frequency === 'MONTHLY') {
    const day = c.dayOfMonth ?? 1;
    const thisMonth = new Date(Date.UTC(y, m, day, hh, mm));
    return thisMonth > after ? thisMonth : new Date(Date.UTC(y, m + 1, day, hh, mm));
  }
  let candidate = new Date(Date.UTC(y, m, d, hh, mm));
  if (c.frequency === 'WEEKLY') {
    const want = c.dayOfWeek ?? 1;
    const shift = (want - candidate.getUTCDay() + 7) % 7;
    candidate = new Date(Date.UTC(y, m, d + shift, hh, mm));
    return candidate > after ? candidate : new Date(Date.UTC(y, m, d + shift + 7, hh, mm));
  }
  return candidate > after ? candidate : new Date(Date.UTC(y, m, d + 1, hh, mm));
}
