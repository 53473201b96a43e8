import { describe, expect, it } from 'vitest';
import { bounds, currentOrNext, expand, isOccurrence, rruleText, type Schedule } from './recurrence.ts';

const daily = (zone: string, startLocal: string, endLocal: string, extra: Partial<Schedule> = {}): Schedule => ({
  startLocal,
  endLocal,
  timeZone: zone,
  allDay: false,
  recurrence: { freq: 'DAILY', interval: 1, byWeekday: [], until: null, count: null },
  exceptions: [],
  ...extra,
});
const iso = (d: Date) => d.toISOString();
const starts = (s: Schedule, from: string, to: string) => expand(s, new Date(from), new Date(to)).map((o) => iso(o.start));

describe('recurrences across daylight-saving changes (golden)', () => {
  it('America/New_York: a 09:00 shift stays 09:00 local when clocks spring forward and fall back', () => {
    const s = daily('America/New_York', '2026-03-06T09:00', '2026-03-06T17:00');
    expect(starts(s, '2026-03-06T00:00:00Z', '2026-03-10T00:00:00Z')).toEqual([
      '2026-03-06T14:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
    expect(starts(s, '2026-10-31T00:00:00Z', '2026-11-03T00:00:00Z')).toEqual([
      '2026-10-31T13:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
    ]);
    const [onChange] = expand(s, new Date('2026-03-08T00:00:00Z'), new Date('2026-03-09T00:00:00Z'));
    expect(onChange?.local).toBe('2026-03-08T09:00');
    expect(iso(onChange?.end as Date)).toBe('2026-03-08T21:00:00.000Z');
  });

  it('Europe/London: weekly Monday and Sunday 09:00 across the end of March and October', () => {
    const s = daily('Europe/London', '2026-03-22T09:00', '2026-03-22T10:30', {
      recurrence: { freq: 'WEEKLY', interval: 1, byWeekday: ['SU', 'MO'], until: null, count: null },
    });
    expect(starts(s, '2026-03-22T00:00:00Z', '2026-04-01T00:00:00Z')).toEqual([
      '2026-03-22T09:00:00.000Z',
      '2026-03-23T09:00:00.000Z',
      '2026-03-29T08:00:00.000Z',
      '2026-03-30T08:00:00.000Z',
    ]);
    expect(starts(s, '2026-10-24T00:00:00Z', '2026-10-27T00:00:00Z')).toEqual(['2026-10-25T09:00:00.000Z', '2026-10-26T09:00:00.000Z']);
  });

  it('Australia/Sydney: a 09:00 shift across the April and October changes (southern hemisphere)', () => {
    const s = daily('Australia/Sydney', '2026-04-03T09:00', '2026-04-03T17:00');
    expect(starts(s, '2026-04-02T12:00:00Z', '2026-04-06T00:00:00Z')).toEqual([
      '2026-04-02T22:00:00.000Z',
      '2026-04-03T22:00:00.000Z',
      '2026-04-04T23:00:00.000Z',
      '2026-04-05T23:00:00.000Z',
    ]);
    expect(starts(s, '2026-10-02T12:00:00Z', '2026-10-05T00:00:00Z')).toEqual([
      '2026-10-02T23:00:00.000Z',
      '2026-10-03T22:00:00.000Z',
      '2026-10-04T22:00:00.000Z',
    ]);
  });

  it('a night shift spanning the change keeps its wall-clock end (7 real hours when an hour is skipped)', () => {
    const s = daily('America/New_York', '2026-03-07T22:00', '2026-03-08T06:00', { recurrence: null });
    const [o] = expand(s, new Date('2026-03-07T00:00:00Z'), new Date('2026-03-09T00:00:00Z'));
    expect(iso(o?.start as Date)).toBe('2026-03-08T03:00:00.000Z');
    expect(iso(o?.end as Date)).toBe('2026-03-08T10:00:00.000Z');
  });

  it('a time the clock skips moves forward; a repeated time takes its standard-time instant', () => {
    const skipped = daily('America/New_York', '2026-03-08T02:30', '2026-03-08T03:30', { recurrence: null });
    expect(iso(expand(skipped, new Date('2026-03-08T00:00:00Z'), new Date('2026-03-09T00:00:00Z'))[0]?.start as Date)).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    const repeated = daily('America/New_York', '2026-11-01T01:30', '2026-11-01T02:00', { recurrence: null });
    expect(iso(expand(repeated, new Date('2026-11-01T00:00:00Z'), new Date('2026-11-02T00:00:00Z'))[0]?.start as Date)).toBe(
      '2026-11-01T06:30:00.000Z',
    );
  });
});

describe('series rules', () => {
  const s = daily('Europe/London', '2026-01-05T09:00', '2026-01-05T17:00', {
    recurrence: { freq: 'WEEKLY', interval: 2, byWeekday: ['MO'], until: null, count: 3 },
    exceptions: ['2026-01-19T09:00'],
  });

  it('skips exceptions and stops after count', () => {
    expect(starts(s, '2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z')).toEqual(['2026-01-05T09:00:00.000Z', '2026-02-02T09:00:00.000Z']);
    expect(isOccurrence(s, '2026-01-05T09:00')).toBe(true);
    expect(isOccurrence(s, '2026-01-19T09:00')).toBe(false);
    expect(isOccurrence(s, '2026-01-12T09:00')).toBe(false);
  });

  it('knows its bounds, its RRULE and the next occurrence', () => {
    const b = bounds(s);
    expect(iso(b.startsAt)).toBe('2026-01-05T09:00:00.000Z');
    expect(iso(b.endsAt as Date)).toBe('2026-02-02T17:00:00.000Z');
    expect(rruleText(s.recurrence, s.startLocal)).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=3');
    expect(currentOrNext(s, new Date('2026-01-05T12:00:00Z'))?.local).toBe('2026-01-05T09:00');
    expect(currentOrNext(s, new Date('2026-01-06T00:00:00Z'))?.local).toBe('2026-02-02T09:00');
    expect(currentOrNext(s, new Date('2026-02-03T00:00:00Z'))).toBeNull();
  });

  it('monthly with until is inclusive of the until day', () => {
    const m = daily('Australia/Sydney', '2026-01-31T08:00', '2026-01-31T09:00', {
      recurrence: { freq: 'MONTHLY', interval: 1, byWeekday: [], until: '2026-05-31', count: null },
    });
    expect(expand(m, new Date('2026-01-01T00:00:00Z'), new Date('2026-07-01T00:00:00Z')).map((o) => o.local)).toEqual([
      '2026-01-31T08:00',
      '2026-03-31T08:00',
      '2026-05-31T08:00',
    ]);
  });
});
