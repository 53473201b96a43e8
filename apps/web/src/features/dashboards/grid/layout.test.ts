import { describe, expect, it } from 'vitest';
import {
  addToLayouts,
  applyGridLayout,
  breakpointFor,
  clampBox,
  deriveSmallLayout,
  gridLayout,
  layoutsForSave,
  newWidgetId,
  removeFromLayouts,
  sameLayout,
  wideLayout,
} from './layout.ts';

const ids = ['b', 'a', 'c'];
const layouts = {
  lg: [
    { i: 'b', x: 6, y: 0, w: 6, h: 4 },
    { i: 'a', x: 0, y: 0, w: 6, h: 6 },
    { i: 'c', x: 0, y: 6, w: 12, h: 3 },
  ],
  sm: [],
};

describe('dashboard grid layout', () => {
  it('keeps boxes on the grid', () => {
    expect(clampBox({ x: 11, y: -2, w: 4, h: 0 }, 12)).toEqual({ x: 8, y: 0, w: 4, h: 1 });
    expect(clampBox({ x: 1.6, y: 2.2, w: 40, h: 3 }, 12)).toEqual({ x: 0, y: 2, w: 12, h: 3 });
    expect(clampBox({ x: Number.NaN, y: 0, w: 2, h: 200 }, 4)).toEqual({ x: 0, y: 0, w: 2, h: 48 });
  });

  it('places a widget without a stored box below the others on the wide grid', () => {
    expect(wideLayout(['a', 'new'], layouts)).toEqual([
      { i: 'a', x: 0, y: 0, w: 6, h: 6 },
      { i: 'new', x: 0, y: 6, w: 4, h: 6 },
    ]);
  });

  it('derives the small-screen layout by stacking in reading order, full width', () => {
    expect(deriveSmallLayout(layouts.lg)).toEqual([
      { i: 'a', x: 0, y: 0, w: 4, h: 6 },
      { i: 'b', x: 0, y: 6, w: 4, h: 4 },
      { i: 'c', x: 0, y: 10, w: 4, h: 3 },
    ]);
    expect(gridLayout(ids, layouts, 'sm').map((item) => item.i)).toEqual(['a', 'b', 'c']);
  });

  it('uses the stored small-screen layout when it places every widget', () => {
    const own = { ...layouts, sm: ids.map((i, n) => ({ i, x: n % 2, y: n * 2, w: 2, h: 2 })) };
    expect(gridLayout(ids, own, 'sm').map(({ i, x, y }) => ({ i, x, y }))).toEqual([
      { i: 'b', x: 0, y: 0 },
      { i: 'a', x: 1, y: 2 },
      { i: 'c', x: 0, y: 4 },
    ]);
  });

  it('writes a moved layout into the breakpoint it was shown at only', () => {
    const moved = applyGridLayout(layouts, [{ i: 'a', x: 6, y: 4, w: 6, h: 6 }], 'lg');
    expect(moved.lg).toEqual([{ i: 'a', x: 6, y: 4, w: 6, h: 6 }]);
    expect(moved.sm).toEqual([]);
    const small = applyGridLayout(layouts, [{ i: 'c', x: 0, y: 0, w: 9, h: 2 }], 'sm');
    expect(small.sm).toEqual([{ i: 'c', x: 0, y: 0, w: 4, h: 2 }]);
    expect(small.lg).toBe(layouts.lg);
  });

  it('saves both grids for exactly the widgets there are, adds below and removes', () => {
    const saved = layoutsForSave(['a', 'c'], layouts);
    expect(saved.lg.map((item) => item.i)).toEqual(['a', 'c']);
    expect(saved.sm).toEqual([
      { i: 'a', x: 0, y: 0, w: 4, h: 6 },
      { i: 'c', x: 0, y: 6, w: 4, h: 3 },
    ]);
    const added = addToLayouts(ids, layouts, 'd', { w: 3, h: 5 });
    expect(added.lg.at(-1)).toEqual({ i: 'd', x: 0, y: 9, w: 3, h: 5 });
    expect(added.sm.at(-1)).toEqual({ i: 'd', x: 0, y: 13, w: 4, h: 5 });
    expect(removeFromLayouts(added, 'd').lg.map((item) => item.i)).toEqual(['b', 'a', 'c']);
  });

  it('tells a real move from the same layout reported again, and picks the breakpoint by width', () => {
    const a = gridLayout(ids, layouts, 'lg');
    expect(sameLayout(a, [...a].reverse())).toBe(true);
    expect(
      sameLayout(
        a,
        a.map((item) => (item.i === 'c' ? { ...item, y: 7 } : item)),
      ),
    ).toBe(false);
    expect(breakpointFor(390)).toBe('sm');
    expect(breakpointFor(1280)).toBe('lg');
    const seq = [0.1, 0.1, 0.2];
    const first = newWidgetId([], () => 0.1);
    expect(newWidgetId([first], () => seq.shift() ?? 0.3)).not.toBe(first);
  });
});
