import { describe, expect, it } from 'vitest';
import { nextRun } from './next-run.ts';

const at = (s: string) => new Date(s);
const base = { dayOfWeek: null, dayOfMonth: null };

describe('nextRun', () => {
  it('runs daily at the time, today when still ahead, else tomorrow', () => {
    expect(nextRun({ ...base, frequency: 'DAILY', time: '06:30' }, at('2026-03-10T05:00:00Z')).toISOString()).toBe(
      '2026-03-10T06:30:00.000Z',
    );
    expect(nextRun({ ...base, frequency: 'DAILY', time: '06:30' }, at('2026-03-10T06:30:00Z')).toISOString()).toBe(
      '2026-03-11T06:30:00.000Z',
    );
    expect(nextRun({ ...base, frequency: 'DAILY', time: '00:00' }, at('2026-12-31T23:59:00Z')).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });
  it('runs weekly on the weekday', () => {
    // 2026-03-10 is a Tuesday (2)
    const weekly = { ...base, frequency: 'WEEKLY' as const, time: '08:00', dayOfWeek: 1 };
    expect(nextRun(weekly, at('2026-03-10T09:00:00Z')).toISOString()).toBe('2026-03-16T08:00:00.000Z');
    expect(nextRun({ ...weekly, dayOfWeek: 2 }, at('2026-03-10T07:00:00Z')).toISOString()).toBe('2026-03-10T08:00:00.000Z');
    expect(nextRun({ ...weekly, dayOfWeek: 2 }, at('2026-03-10T08:00:00Z')).toISOString()).toBe('2026-03-17T08:00:00.000Z');
  });
  it('runs monthly on the day, rolling over the year', () => {
    const monthly = { ...base, frequency: 'MONTHLY' as const, time: '07:15', dayOfMonth: 28 };
    expect(nextRun(monthly, at('2026-02-01T00:00:00Z')).toISOString()).toBe('2026-02-28T07:15:00.000Z');
    expect(nextRun(monthly, at('2026-12-28T07:15:00Z')).toISOString()).toBe('2027-01-28T07:15:00.000Z');
  });
});
