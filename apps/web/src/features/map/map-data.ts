import { MAP } from '@sitewatch/contracts/map';
import type { MapSite } from '@sitewatch/contracts/sites';
import { api } from '../../lib/api.ts';

/**
 * The markers of the map, fetched in pages of 1000 (SPEC 9). Kept apart from React Query so that the route can start
 * the requests from the main bundle while the page's code loads; the page's query then takes the same promise.
 */

interface MapPage {
  contents: MapSite[];
  totalCount: number;
}

export interface MapFilter {
  path?: string[];
}

const COUNT_KEY = 'map-site-count';
/** How long a prefetched answer waits for the page to take it. */
const KEEP_MS = 10_000;

const keyOf = (parentDevice: string, filter: MapFilter) => JSON.stringify([parentDevice, filter.path ?? []]);

/** The number of markers the last visit found for this query (this tab), so that every page can be asked at once. */
function knownCount(key: string): number {
  try {
    return Number((JSON.parse(sessionStorage.getItem(COUNT_KEY) ?? '{}') as Record<string, number>)[key]) || 0;
  } catch {
    return 0;
  }
}

function rememberCount(key: string, count: number) {
  try {
    const all = JSON.parse(sessionStorage.getItem(COUNT_KEY) ?? '{}') as Record<string, number>;
    all[key] = count;
    sessionStorage.setItem(COUNT_KEY, JSON.stringify(all));
  } catch {
    // storage full or unavailable: the next visit asks for the first page first
  }
}

async function fetchAll(parentDevice: string, filter: MapFilter, key: string, quiet = false): Promise<MapSite[]> {
  const page = (n: number) =>
    api.get('/iotapp/assets/map/', {
      query: { ...filter, parentDevice, page: n, limit: MAP.pageSize },
      ...(quiet ? { toast: false } : {}),
    });
  const pagesOf = (count: number) => Math.max(1, Math.ceil(count / MAP.pageSize));
  // Every page the last count needs, side by side; then any page the site count has grown into.
  const asked = Array.from({ length: pagesOf(knownCount(key)) }, (_, i) => page(i + 1));
  const first = await (asked[0] as Promise<MapPage>);
  const needed = pagesOf(first.totalCount);
  for (let n = asked.length + 1; n <= needed; n++) asked.push(page(n));
  const pages = await Promise.all(asked.slice(0, needed));
  rememberCount(key, first.totalCount);
  return pages.flatMap((p) => p.contents);
}

const pending = new Map<string, { promise: Promise<MapSite[]>; at: number }>();
/** When each query was last answered: the page's query keeps that answer for as long (its staleTime). */
const answeredAt = new Map<string, number>();
export const MAP_SITES_FRESH_MS = 30_000;

/** Starts fetching the markers, or joins the fetch already started for the same query. */
export function loadMapSites(parentDevice: string, filter: MapFilter, quiet = false): Promise<MapSite[]> {
  const key = keyOf(parentDevice, filter);
  const running = pending.get(key);
  if (running && Date.now() - running.at < KEEP_MS) return running.promise;
  const promise = fetchAll(parentDevice, filter, key, quiet);
  pending.set(key, { promise, at: Date.now() });
  promise.then(
    () => answeredAt.set(key, Date.now()),
    () => pending.delete(key),
  );
  return promise;
}

/**
 * On navigation to the map: starts the requests unless they are running or the page still holds a fresh answer
 * (choosing a site changes the address, which must not fetch every marker again).
 */
export function prefetchMapSites(parentDevice: string, filter: MapFilter): void {
  const key = keyOf(parentDevice, filter);
  if (pending.has(key) || Date.now() - (answeredAt.get(key) ?? 0) < MAP_SITES_FRESH_MS) return;
  // Quiet: a refused address (an unknown parentDevice) is explained by the page, not by a toast before it.
  void loadMapSites(parentDevice, filter, true).catch(() => undefined);
}

/** The page's own fetch: takes a prefetched answer once, else fetches. */
export function takeMapSites(parentDevice: string, filter: MapFilter): Promise<MapSite[]> {
  const promise = loadMapSites(parentDevice, filter);
  pending.delete(keyOf(parentDevice, filter));
  return promise;
}

/** The query of the map page from its address: parentDevice (default ROUTER) and the tree's address levels. */
export function mapQueryOf(params: URLSearchParams): { parentDevice: string; filter: MapFilter } {
  const path = params.getAll('path');
  return {
    parentDevice: (params.get('parentDevice') ?? MAP.defaultParentDevice).toUpperCase(),
    filter: path.length ? { path } : {},
  };
}
