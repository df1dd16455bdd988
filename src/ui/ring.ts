// A fixed-capacity ring buffer: the log pane keeps the newest N lines and forgets older ones, so
// its memory stays flat however long `watch` runs.

export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private start = 0; // index of the oldest item
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring buffer capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Appends; when full, the oldest item is dropped. */
  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  /** The newest `n` items, oldest first (O(n), whatever the capacity). */
  last(n: number): T[] {
    const k = Math.max(0, Math.min(n, this.count));
    const out: T[] = new Array<T>(k);
    for (let i = 0; i < k; i++) out[i] = this.items[(this.start + this.count - k + i) % this.capacity] as T;
    return out;
  }

  toArray(): T[] {
    return this.last(this.count);
  }

  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.count = 0;
  }
}
