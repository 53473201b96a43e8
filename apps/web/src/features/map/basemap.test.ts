import { describe, expect, it } from 'vitest';
import { unwrapRing } from './basemap.ts';

describe('basemap outlines', () => {
  it('keeps a ring crossing the antimeridian together instead of drawing a band across the world', () => {
    const fiji = [
      [178, -17],
      [179.9, -16],
      [-179.8, -16.5],
      [-179.9, -17.5],
      [178, -17],
    ];
    const unwrapped = unwrapRing(fiji);
    const lons = unwrapped.map((p) => p[0] as number);
    for (let i = 1; i < lons.length; i++) expect(Math.abs((lons[i] as number) - (lons[i - 1] as number))).toBeLessThanOrEqual(180);
    expect(lons).toEqual([178, 179.9, 180.2, 180.1, 178]);
  });

  it('leaves ordinary rings as they are', () => {
    const ring = [
      [10, 50],
      [12, 51],
      [11, 49],
      [10, 50],
    ];
    expect(unwrapRing(ring)).toEqual(ring);
  });
});
