import { GRID_COLUMNS, GRID_MAX_H, GRID_MAX_Y, type LayoutItem, type Layouts } from '@sitewatch/contracts/dashboards';

/**
 * The dashboard grid: the stored `layouts` (one react-grid-layout item per widget on the wide grid `lg`, and on
 * the small-screen grid `sm`) and the layouts the grid shows. Pure, so the rules are unit-tested.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Breakpoint = 'lg' | 'sm';
export type GridLayouts = Pick<Layouts, 'lg' | 'sm'>;

/** Below this container width the small-screen layout is used (a phone, a narrow frame). */
export const SMALL_MAX_WIDTH = 600;
export const ROW_HEIGHT = 40;
/** A widget's size when nothing else says. */
export const DEFAULT_SIZE = { w: 4, h: 6 } as const;

export const breakpointFor = (width: number): Breakpoint => (width < SMALL_MAX_WIDTH ? 'sm' : 'lg');

/** Keeps a box on the grid: whole cells, at least 1x1, inside the columns and the contract's limits. */
export function clampBox(box: Box, cols: number): Box {
  const int = (v: number, min: number) => (Number.isFinite(v) ? Math.max(min, Math.round(v)) : min);
  const w = Math.min(cols, int(box.w, 1));
  const h = Math.min(GRID_MAX_H, int(box.h, 1));
  const x = Math.min(cols - w, int(box.x, 0));
  const y = Math.min(GRID_MAX_Y, int(box.y, 0));
  return { x, y, w, h };
}

/** Reading order of a layout: top to bottom, then left to right. */
export const readingOrder = (items: readonly LayoutItem[]) => [...items].sort((a, b) => a.y - b.y || a.x - b.x || a.i.localeCompare(b.i));

/** The wide layout of these widgets: stored boxes, a new row at the bottom for a widget without one. */
export function wideLayout(ids: readonly string[], layouts: GridLayouts): LayoutItem[] {
  const cols = GRID_COLUMNS.lg;
  const byId = new Map(layouts.lg.map((item) => [item.i, item]));
  let bottom = layouts.lg.filter((item) => ids.includes(item.i)).reduce((m, item) => Math.max(m, item.y + item.h), 0);
  return ids.map((i) => {
    const stored = byId.get(i);
    if (stored) return { i, ...clampBox(stored, cols) };
    const box = clampBox({ x: 0, y: bottom, ...DEFAULT_SIZE }, cols);
    bottom += box.h;
    return { i, ...box };
  });
}

/** A small-screen layout from the wide one: every widget full width, stacked in reading order, height kept. */
export function deriveSmallLayout(wide: readonly LayoutItem[]): LayoutItem[] {
  const cols = GRID_COLUMNS.sm;
  let y = 0;
  return readingOrder(wide).map((item) => {
    const box = clampBox({ x: 0, y, w: cols, h: item.h }, cols);
    y += box.h;
    return { i: item.i, ...box };
  });
}

/**
 * The layout the grid shows at a breakpoint. The small-screen layout is the stored one when it places every widget,
 * otherwise derived from the wide one (a dashboard never arranged for phones still reads top to bottom).
 */
export function gridLayout(ids: readonly string[], layouts: GridLayouts, bp: Breakpoint): LayoutItem[] {
  const wide = wideLayout(ids, layouts);
  if (bp === 'lg') return wide;
  const small = new Map(layouts.sm.map((item) => [item.i, item]));
  if (ids.every((i) => small.has(i))) return ids.map((i) => ({ i, ...clampBox(small.get(i) as LayoutItem, GRID_COLUMNS.sm) }));
  return deriveSmallLayout(wide);
}

/** A layout moved on the grid, written into the breakpoint it was shown at; the other stays as it was. */
export function applyGridLayout(layouts: GridLayouts, items: readonly LayoutItem[], bp: Breakpoint): GridLayouts {
  const cols = GRID_COLUMNS[bp];
  const next = items.map(({ i, x, y, w, h }) => ({ i, ...clampBox({ x, y, w, h }, cols) }));
  return bp === 'lg' ? { ...layouts, lg: next } : { ...layouts, sm: next };
}

/** Layouts to save: both breakpoints place exactly these widgets (the small one derived when it does not). */
export function layoutsForSave(ids: readonly string[], layouts: GridLayouts): GridLayouts {
  return { lg: gridLayout(ids, layouts, 'lg'), sm: gridLayout(ids, layouts, 'sm') };
}

/** Adds a widget below everything on both grids. */
export function addToLayouts(
  ids: readonly string[],
  layouts: GridLayouts,
  id: string,
  size: { w: number; h: number } = DEFAULT_SIZE,
): GridLayouts {
  const { lg, sm } = layoutsForSave(ids, layouts);
  const bottom = (items: LayoutItem[]) => items.reduce((m, item) => Math.max(m, item.y + item.h), 0);
  return {
    lg: [...lg, { i: id, ...clampBox({ x: 0, y: bottom(lg), ...size }, GRID_COLUMNS.lg) }],
    sm: [...sm, { i: id, ...clampBox({ x: 0, y: bottom(sm), w: GRID_COLUMNS.sm, h: size.h }, GRID_COLUMNS.sm) }],
  };
}

export function removeFromLayouts(layouts: GridLayouts, id: string): GridLayouts {
  return { lg: layouts.lg.filter((item) => item.i !== id), sm: layouts.sm.filter((item) => item.i !== id) };
}

/** Whether a change from the grid moved anything (the grid reports its layout on every render). */
export function sameLayout(a: readonly LayoutItem[], b: readonly LayoutItem[]): boolean {
  if (a.length !== b.length) return false;
  const byId = new Map(b.map((item) => [item.i, item]));
  return a.every((item) => {
    const other = byId.get(item.i);
    return other !== undefined && other.x === item.x && other.y === item.y && other.w === item.w && other.h === item.h;
  });
}

/** A new widget id, unique within the dashboard. */
export function newWidgetId(taken: readonly string[], random: () => number = Math.random): string {
  const used = new Set(taken);
  for (;;) {
    const id = `w${Math.floor(random() * 36 ** 6).toString(36)}`;
    if (!used.has(id)) return id;
  }
}
