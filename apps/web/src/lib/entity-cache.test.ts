import { describe, expect, it } from 'vitest';
import { CACHE_KINDS, cachedById, clearEntityCaches, ENTITY_CACHE_SIZE, entityCache, remember } from './entity-cache.ts';

describe('entity caches', () => {
  it('has one cache of 1000 entries for each kind of SPEC 9', () => {
    expect(CACHE_KINDS).toEqual(['assets', 'devices', 'issueTypes', 'deviceTemplates', 'recordingThumbnails', 'audioList', 'userAssets']);
    for (const kind of CACHE_KINDS) expect(entityCache(kind).max).toBe(ENTITY_CACHE_SIZE);
    expect(ENTITY_CACHE_SIZE).toBe(1000);
  });

  it('fills a kind from list answers, evicting its oldest entities beyond 1000, and leaves the other kinds alone', () => {
    clearEntityCaches();
    remember('devices', [{ id: 'x', label: 'kept apart' }]);
    const sites = Array.from({ length: 1200 }, (_, i) => ({ id: i + 1, name: `Site ${i + 1}` }));
    expect(remember('assets', sites)).toBe(sites);
    const assets = entityCache<{ id: number; name: string }>('assets');
    expect(assets.size).toBe(1000);
    expect(assets.get(200)).toBeUndefined();
    expect(assets.get(201)?.name).toBe('Site 201');
    expect(entityCache('devices').get('x')).toEqual({ id: 'x', label: 'kept apart' });
  });

  it('starts a lookup by id from the cached entity with its age, and stores what the fetch returns', async () => {
    clearEntityCaches();
    entityCache('deviceTemplates').set(7, { id: 7, name: 'old' }, 5_000);
    const query = cachedById('deviceTemplates', 7, async () => ({ id: 7, name: 'fresh' }));
    expect(query.initialData()).toEqual({ id: 7, name: 'old' });
    expect(query.initialDataUpdatedAt()).toBe(5_000);
    expect(await query.queryFn()).toEqual({ id: 7, name: 'fresh' });
    expect(entityCache('deviceTemplates').get(7)).toEqual({ id: 7, name: 'fresh' });
    const unknown = cachedById('deviceTemplates', 8, async () => ({ id: 8 }));
    expect(unknown.initialData()).toBeUndefined();
    expect(unknown.initialDataUpdatedAt()).toBeUndefined();
  });
});
