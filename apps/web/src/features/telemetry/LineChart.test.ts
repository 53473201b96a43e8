import { describe, expect, it } from 'vitest';
import { niceTicks } from './LineChart.tsx';

describe('chart y-axis ticks', () => {
  it('uses round steps that cover the values, with as many decimals as the step needs', () => {
    expect(niceTicks(12.37, 48.91)).toEqual({ ticks: [10, 20, 30, 40, 50], lo: 10, hi: 50, decimals: 0 });
    expect(niceTicks(229.4, 231.2)).toMatchObject({ ticks: [229, 229.5, 230, 230.5, 231, 231.5], decimals: 1 });
    expect(niceTicks(0.851, 0.988).decimals).toBe(2);
    expect(niceTicks(1000, 91_000)).toMatchObject({ lo: 0, hi: 100_000, decimals: 0 });
  });
});
