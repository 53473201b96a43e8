import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.ts';

describe('BoundedCache', () => {
  it('keeps at most max entries, evicting the oldest first', () => {
    const cache = new BoundedCache<number, string>(3);
    for (const id of [1, 2, 3, 4, 5]) cache.set(id, `e${id}`);
    expect(cache.size).toBe(3);
    expect(cache.keys()).toEqual([3, 4, 5]);
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(5)).toBe('e5');
  });

  it('makes a rewritten key the newest, while reading does not change the order', () => {
    const cache = new BoundedCache<string, number>(3);
    cache.set('a', 1).set('b', 2).set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect(cache.has('a')).toBe(false);
    cache.set('b', 20);
    cache.set('e', 5);
    expect(cache.keys()).toEqual(['d', 'b', 'e']);
    expect(cache.get('b')).toBe(20);
  });

  it('holds 1000 entries of a kind and drops the 1001st oldest', () => {
    const cache = new BoundedCache<number, { id: number }>(1000);
    for (let id = 1; id <= 1001; id++) cache.set(id, { id });
    expect(cache.size).toBe(1000);
    expect(cache.has(1)).toBe(false);
    expect(cache.has(2)).toBe(true);
    expect(cache.has(1001)).toBe(true);
  });

  it('remembers when each entry was stored and forgets on delete and clear', () => {
    const cache = new BoundedCache<number, string>(2);
    cache.set(1, 'one', 1_000);
    expect(cache.storedAt(1)).toBe(1_000);
    expect(cache.delete(1)).toBe(true);
    expect(cache.storedAt(1)).toBeUndefined();
    cache.set(2, 'two').set(3, 'three');
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('refuses a size below one', () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
  });
});
