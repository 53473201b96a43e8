import { BoundedCache } from './bounded-cache.ts';
import { onSessionEnd } from './http.ts';

/**
 * SPEC 9: entities looked up by id are kept, up to 1000 per kind, the oldest evicted first. TanStack Query stays the
 * fetcher: these caches outlive its query keys (a list fills them, a lookup by id then starts from what the list
 * brought, with its age, and TanStack refetches it when stale). Everything is dropped when the session ends.
 */
export const ENTITY_CACHE_SIZE = 1000;

export const CACHE_KINDS = [
  'assets',
  'devices',
  'issueTypes',
  'deviceTemplates',
  'recordingThumbnails',
  'audioList',
  'userAssets',
] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];
type Key = number | string;

const caches = new Map<CacheKind, BoundedCache<Key, unknown>>(CACHE_KINDS.map((kind) => [kind, new BoundedCache(ENTITY_CACHE_SIZE)]));

export function entityCache<V>(kind: CacheKind): BoundedCache<Key, V> {
  return caches.get(kind) as BoundedCache<Key, V>;
}

/** Keeps the entities of a list answer by their id; returns the list unchanged. */
export function remember<V extends { id: Key }>(kind: CacheKind, items: readonly V[]): readonly V[] {
  const cache = entityCache<V>(kind);
  for (const item of items) cache.set(item.id, item);
  return items;
}

/**
 * The parts of a TanStack query that read and fill the cache of a kind: the query starts from the cached entity (as
 * old as it is, so staleness still applies) and stores what it fetches.
 */
export function cachedById<V>(kind: CacheKind, key: Key, fetch: () => Promise<V>) {
  const cache = entityCache<V>(kind);
  return {
    queryFn: async (): Promise<V> => {
      const value = await fetch();
      cache.set(key, value);
      return value;
    },
    initialData: (): V | undefined => cache.get(key),
    initialDataUpdatedAt: (): number | undefined => cache.storedAt(key),
  };
}

export function clearEntityCaches(): void {
  for (const cache of caches.values()) cache.clear();
}

onSessionEnd(clearEntityCaches);
