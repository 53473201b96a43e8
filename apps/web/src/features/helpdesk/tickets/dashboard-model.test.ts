import { describe, expect, it } from 'vitest';
import { barHeights, dailySeries } from './dashboard-model.ts';

describe('ticket dashboard trend', () => {
  it('has one entry per day of the range, with zero for days without tickets', () => {
    const days = dailySeries(
      [
        { day: '2026-03-02', created: 4, resolved: 1 },
        { day: '2026-03-05', created: 2, resolved: 2 },
      ],
      '2026-03-01T10:00:00.000Z',
      '2026-03-06T09:00:00.000Z',
    );
    expect(days.map((d) => d.day)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06']);
    expect(days.map((d) => d.created)).toEqual([0, 4, 0, 0, 2, 0]);
  });

  it('scales bars to the busiest day, so different counts have different heights', () => {
    const heights = barHeights(
      [
        { day: 'a', created: 8, resolved: 2 },
        { day: 'b', created: 4, resolved: 0 },
      ],
      120,
    );
    expect(heights).toEqual([
      { day: 'a', created: 120, resolved: 30 },
      { day: 'b', created: 60, resolved: 0 },
    ]);
  });
});
