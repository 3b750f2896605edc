// A least-recently-used map bounded by entry count and by a size the caller
// estimates per entry (roughly bytes): the compare caches (compare-cache.ts)
// hold whole run trees, whose size depends on their texts, not their count.
import "server-only";

export class SizedLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxSize: number,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first entry is the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` unless it alone is over the size bound (then it is not kept, and nothing is evicted for it). */
  set(key: string, value: V, size: number): void {
    this.delete(key);
    if (size > this.maxSize) return;
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxSize) break;
      this.entries.delete(oldest);
      this.total -= entry.size;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The sum of the kept entries' sizes. */
  get weight(): number {
    return this.total;
  }
}
