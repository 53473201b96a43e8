import { describe, expect, it } from 'vitest';
import { exceedsMonths, groupByDay, presetRange, viewPath } from './model.ts';

describe('ticket list helpers', () => {
  it('groups a page by day with Today and Yesterday', () => {
    const now = new Date('2026-03-10T12:00:00');
    const groups = groupByDay(
      [
        { createdAt: new Date('2026-03-10T09:00:00').toISOString() },
        { createdAt: new Date('2026-03-10T08:00:00').toISOString() },
        { createdAt: new Date('2026-03-09T23:00:00').toISOString() },
        { createdAt: new Date('2026-03-01T10:00:00').toISOString() },
      ],
      now,
    );
    expect(groups.map((g) => [g.label, g.rows.length])).toEqual([
      ['Today', 2],
      ['Yesterday', 1],
      [expect.stringContaining('2026'), 1],
    ]);
  });

  it("heads each day with its count over the whole list when the server's day counts are known", () => {
    const now = new Date('2026-03-10T12:00:00');
    const rows = [
      { createdAt: new Date('2026-03-10T09:00:00').toISOString() },
      { createdAt: new Date('2026-03-09T23:00:00').toISOString() },
    ];
    const counts = new Map([
      ['2026-03-10', 57],
      ['2026-03-09', 12],
    ]);
    expect(groupByDay(rows, now, counts).map((g) => [g.key, g.label, g.rows.length, g.count])).toEqual([
      ['2026-03-10', 'Today', 1, 57],
      ['2026-03-09', 'Yesterday', 1, 12],
    ]);
    expect(groupByDay(rows, now).map((g) => g.count)).toEqual([1, 1]);
  });

  it('starts with the last 24 hours and allows at most 6 months', () => {
    const range = presetRange('last24h', Date.parse('2026-03-10T12:00:00Z'));
    expect(Date.parse(range.to) - Date.parse(range.from)).toBe(24 * 3600_000);
    expect(exceedsMonths('2026-01-01T00:00:00Z', '2026-07-01T00:00:00Z')).toBe(false);
    expect(exceedsMonths('2026-01-01T00:00:00Z', '2026-07-02T00:00:00Z')).toBe(true);
  });

  it('links a ticket the way SPEC 2.2 writes it', () => {
    expect(viewPath('TICKET', 12, 40)).toBe('/escalation-tickets/view/?ticketId=12&historyId=40');
    expect(viewPath('all', 12)).toBe('/tickets/all/view/?ticketId=12');
    expect(viewPath('WORKORDERTICKET', 7)).toBe('/work-orders/7/view');
  });
});
