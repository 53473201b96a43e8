/**
 * A cache that keeps at most `max` entries and evicts the oldest first (SPEC 9: up to 1000 entries per kind). Age is
 * the order of writing: storing a key again makes it the newest, reading does not. Each entry remembers when it was
 * stored, so a caller can tell how fresh it is.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; storedAt: number }>();

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('A bounded cache holds at least one entry');
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** When the entry was stored (epoch ms), or undefined when it is not held. */
  storedAt(key: K): number | undefined {
    return this.entries.get(key)?.storedAt;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V, storedAt = Date.now()): this {
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  keys(): K[] {
    return [...this.entries.keys()];
  }
}
