/** Map view (SPEC 2.12, 9). */
export const MAP = {
  pageSize: 1000,
  searchDebounceMs: 500,
  minZoom: 1.5,
  initialZoom: 2,
  groupByFirstLevelAtOrBelowZoom: 4,
  bounds: [
    [-85, -180],
    [85, 180],
  ] as [[number, number], [number, number]],
  center: [20, 10] as [number, number],
  maxLocationsOptions: [5, 10, 20, 30, 50, 100, 500] as const,
  defaultParentDevice: 'ROUTER',
} as const;
