import { describe, expect, it } from 'vitest';
import { alignSeries, appendPoints } from './series-data.ts';

describe('chart series', () => {
  it('aligns series on one time axis in seconds, null where a series has no point', () => {
    expect(
      alignSeries([
        {
          label: 'a',
          points: [
            { ts: 1000, value: 1 },
            { ts: 3000, value: 3 },
          ],
        },
        {
          label: 'b',
          points: [
            { ts: 2000, value: 20 },
            { ts: 3000, value: 30 },
          ],
        },
      ]),
    ).toEqual([
      [1, 2, 3],
      [1, null, 3],
      [null, 20, 30],
    ]);
    expect(alignSeries([{ label: 'a', points: [{ ts: 5000, value: 2 }] }])).toEqual([[5], [2]]);
    expect(alignSeries([])).toEqual([[]]);
  });

  it('appends only newer pushed points and keeps the newest max', () => {
    const base = [
      { ts: 1, value: 1 },
      { ts: 2, value: 2 },
    ];
    expect(
      appendPoints(
        base,
        [
          { ts: 2, value: 9 },
          { ts: 4, value: 4 },
          { ts: 3, value: 3 },
        ],
        3,
      ),
    ).toEqual([
      { ts: 2, value: 2 },
      { ts: 3, value: 3 },
      { ts: 4, value: 4 },
    ]);
    expect(appendPoints(base, [{ ts: 0, value: 0 }], 10)).toBe(base);
  });
});
