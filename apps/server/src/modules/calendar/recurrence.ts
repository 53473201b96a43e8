import type { Recurrence, Weekday } from '@sitewatch/contracts';
import { DateTime } from 'luxon';
import * as rruleModule from 'rrule';

// rrule ships CommonJS for Node: its named exports sit on the default export there, and on the module under bundlers.
const { RRule } = ((rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule) as typeof rruleModule;

const WEEKDAY = { MO: RRule.MO, TU: RRule.TU, WE: RRule.WE, TH: RRule.TH, FR: RRule.FR, SA: RRule.SA, SU: RRule.SU } as const;
const FREQ = { DAILY: RRule.DAILY, WEEKLY: RRule.WEEKLY, MONTHLY: RRule.MONTHLY } as const;

/** What expansion needs of an event: wall-clock start and end in its zone, the zone, the rule and its exceptions. */
export interface Schedule {
  startLocal: string;
  endLocal: string;
  timeZone: string;
  allDay: boolean;
  recurrence: Recurrence | null;
  exceptions: readonly string[];
}

export interface Occurrence {
  /** Wall-clock start in the zone (`2026-03-08T09:00`): the occurrence's key. */
  local: string;
  start: Date;
  end: Date;
}

/** A wall-clock time `YYYY-MM-DDTHH:mm` in a zone as a UTC instant (a time the clock skips moves forward, as Luxon does). */
export function zonedToUtc(local: string, zone: string): Date {
  return DateTime.fromISO(local, { zone }).toUTC().toJSDate();
}

/** A UTC instant as wall-clock `YYYY-MM-DDTHH:mm` in a zone. */
export function utcToLocal(at: Date, zone: string): string {
  return DateTime.fromJSDate(at, { zone }).toFormat("yyyy-MM-dd'T'HH:mm");
}

/** Wall-clock text as a "floating" date: its UTC fields are the wall-clock fields (how rrule wants them). */
const floating = (local: string) => new Date(`${local}:00Z`);
const fromFloating = (d: Date) => d.toISOString().slice(0, 16);

/** The minutes between two wall-clock times, as the calendar shows them (an 8-hour shift stays 8 hours). */
function wallMinutes(startLocal: string, endLocal: string) {
  return (floating(endLocal).getTime() - floating(startLocal).getTime()) / 60_000;
}

/** The RRULE (RFC 5545) of a recurrence starting at a wall-clock time. */
export function ruleOf(r: Recurrence, startLocal: string) {
  return new RRule({
    freq: FREQ[r.freq],
    interval: r.interval,
    dtstart: floating(startLocal),
    ...(r.byWeekday.length ? { byweekday: r.byWeekday.map((d: Weekday) => WEEKDAY[d]) } : {}),
    ...(r.until ? { until: floating(`${r.until}T23:59`) } : {}),
    ...(r.count ? { count: r.count } : {}),
  });
}

export function rruleText(r: Recurrence | null, startLocal: string): string | null {
  if (!r) return null;
  return ruleOf(r, startLocal)
    .toString()
    .split('\n')
    .filter((l) => l.startsWith('RRULE:'))
    .join('')
    .replace(/^RRULE:/, '');
}

/** Where an occurrence at a wall-clock start lands: all-day events keep whole days in the zone. */
function occurrenceAt(local: string, minutes: number, zone: string): Occurrence {
  const start = DateTime.fromISO(local, { zone });
  // Wall-clock end: a 09:00-17:00 shift stays 09:00-17:00 on the day the clocks change.
  const endLocal = fromFloating(new Date(floating(local).getTime() + minutes * 60_000));
  const end = DateTime.fromISO(endLocal, { zone });
  return { local, start: start.toUTC().toJSDate(), end: end.toUTC().toJSDate() };
}

/**
 * The occurrences of a schedule overlapping [from, to): expanded in the event's wall-clock time of its zone, then
 * converted to UTC, so a 09:00 shift stays at 09:00 local on both sides of a daylight-saving change.
 * At most `limit` occurrences.
 */
export function expand(s: Schedule, from: Date, to: Date, limit = 5000): Occurrence[] {
  const minutes = wallMinutes(s.startLocal, s.endLocal);
  if (!s.recurrence) {
    const one = occurrenceAt(s.startLocal, minutes, s.timeZone);
    return one.start < to && one.end > from && !s.exceptions.includes(s.startLocal) ? [one] : [];
  }
  // Search the wall-clock window with a margin of the event's length and a day for the zone's offset.
  const day = 86_400_000;
  const windowFrom = new Date(floating(utcToLocal(from, s.timeZone)).getTime() - minutes * 60_000 - day);
  const windowTo = new Date(floating(utcToLocal(to, s.timeZone)).getTime() + day);
  const rule = ruleOf(s.recurrence, s.startLocal);
  const skip = new Set(s.exceptions);
  const out: Occurrence[] = [];
  for (const d of rule.between(windowFrom, windowTo, true)) {
    const local = fromFloating(d);
    if (skip.has(local)) continue;
    const occ = occurrenceAt(local, minutes, s.timeZone);
    if (occ.start < to && occ.end > from) out.push(occ);
    if (out.length >= limit) break;
  }
  return out;
}

/** Whether a wall-clock start is one of the series' occurrences (exceptions excluded). */
export function isOccurrence(s: Schedule, local: string): boolean {
  if (s.exceptions.includes(local)) return false;
  if (!s.recurrence) return local === s.startLocal;
  const at = floating(local);
  const hit = ruleOf(s.recurrence, s.startLocal).between(at, at, true);
  return hit.length > 0;
}

/** The first occurrence's start and the last one's end in UTC (end null when the series never ends). */
export function bounds(s: Schedule): { startsAt: Date; endsAt: Date | null } {
  const minutes = wallMinutes(s.startLocal, s.endLocal);
  const first = occurrenceAt(s.startLocal, minutes, s.timeZone);
  if (!s.recurrence) return { startsAt: first.start, endsAt: first.end };
  if (!s.recurrence.until && !s.recurrence.count) return { startsAt: first.start, endsAt: null };
  const all = ruleOf(s.recurrence, s.startLocal).all();
  const last = all[all.length - 1];
  const end = last ? occurrenceAt(fromFloating(last), minutes, s.timeZone).end : first.end;
  return { startsAt: first.start, endsAt: end };
}

/** The next occurrence (not an exception) that has not ended by `at`, if any. */
export function currentOrNext(s: Schedule, at: Date): Occurrence | null {
  const minutes = wallMinutes(s.startLocal, s.endLocal);
  if (!s.recurrence) {
    const one = occurrenceAt(s.startLocal, minutes, s.timeZone);
    return one.end > at && !s.exceptions.includes(s.startLocal) ? one : null;
  }
  const rule = ruleOf(s.recurrence, s.startLocal);
  const skip = new Set(s.exceptions);
  let cursor = new Date(floating(utcToLocal(at, s.timeZone)).getTime() - minutes * 60_000 - 86_400_000);
  for (let i = 0; i < 1000; i++) {
    const d = rule.after(cursor, false);
    if (!d) return null;
    cursor = d;
    const local = fromFloating(d);
    if (skip.has(local)) continue;
    const occ = occurrenceAt(local, minutes, s.timeZone);
    if (occ.end > at) return occ;
  }
  return null;
}

/** Shifts a wall-clock time by the difference between two others (moving a series with one of its occurrences). */
export function shiftLocal(local: string, fromLocal: string, toLocal: string): string {
  return fromFloating(new Date(floating(local).getTime() + floating(toLocal).getTime() - floating(fromLocal).getTime()));
}
