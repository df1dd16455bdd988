// In-memory object storage: one global resourceVersion counter (like etcd's revision), objects kept
// immutable once stored, and a bounded per-resource event history used for watch resume and for
// consistent paginated lists at an older resourceVersion.
import type { Obj } from './util.js';
import { metaNamespaceKey } from '../core/object-key.js';

type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: EventType;
  resource: string;
  rv: number;
  /** The object after the change (for DELETED: its last state, carrying the deletion's resourceVersion). */
  object: Obj;
  /** The object before the change (MODIFIED, DELETED). */
  prev?: Obj;
}

interface History {
  events: StoreEvent[];
  /** Highest resourceVersion evicted from the history, 0 while nothing was evicted. */
  evicted: number;
}

export function keyOf(o: Obj): string {
  return metaNamespaceKey(o.metadata?.namespace, o.metadata?.name);
}

export class Store {
  private rv = 1;
  private readonly data = new Map<string, Map<string, Obj>>();
  private readonly sorted = new Map<string, string[] | null>();
  private readonly history = new Map<string, History>();
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  constructor(readonly historySize: number) {}

  currentRV(): number {
    return this.rv;
  }

  private bucket(resource: string): Map<string, Obj> {
    let b = this.data.get(resource);
    if (!b) {
      b = new Map();
      this.data.set(resource, b);
    }
    return b;
  }

  get(resource: string, namespace: string | undefined, name: string): Obj | undefined {
    return this.data.get(resource)?.get(metaNamespaceKey(namespace, name));
  }

  /** Objects sorted by storage key (namespace/name), as etcd returns them. */
  /**
   * One page of the current state: objects after `start` (a key; "" from the beginning) in key
   * order, at most `limit` of them that `accept`, found by binary search, so a page costs
   * O(log n + page) rather than O(n). `remaining` counts the keys left in range (unfiltered).
   */
  pageFrom(
    resource: string,
    namespace: string | undefined,
    start: string,
    limit: number,
    accept: (o: Obj) => boolean,
  ): { items: Obj[]; more: boolean; remaining: number } {
    const b = this.data.get(resource);
    if (!b) return { items: [], more: false, remaining: 0 };
    this.list(resource, '\u0000'); // builds the sorted key cache
    const keys = this.sorted.get(resource)!;
    const lowerBound = (k: string) => {
      let lo = 0;
      let hi = keys.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (keys[mid] < k) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const prefix = namespace ? `${namespace}/` : '';
    const begin = lowerBound(start > prefix ? start : prefix);
    const end = namespace ? lowerBound(`${namespace}/\uffff`) : keys.length;
    const items: Obj[] = [];
    let i = begin;
    for (; i < end && items.length < limit; i++) {
      const o = b.get(keys[i])!;
      if (accept(o)) items.push(o);
    }
    let more = false;
    for (let j = i; j < end; j++) {
      if (accept(b.get(keys[j])!)) {
        more = true;
        break;
      }
    }
    return { items, more, remaining: end - i };
  }

  list(resource: string, namespace?: string): Obj[] {
    const b = this.data.get(resource);
    if (!b) return [];
    let keys = this.sorted.get(resource);
    if (!keys) {
      keys = [...b.keys()].sort();
      this.sorted.set(resource, keys);
    }
    const out: Obj[] = [];
    if (namespace) {
      const prefix = `${namespace}/`;
      for (const k of keys) if (k.startsWith(prefix)) out.push(b.get(k)!);
    } else {
      for (const k of keys) out.push(b.get(k)!);
    }
    return out;
  }

  count(resource: string): number {
    return this.data.get(resource)?.size ?? 0;
  }

  /** Stores an object (create or update). The object must not be mutated afterwards. */
  put(resource: string, obj: Obj): StoreEvent {
    const b = this.bucket(resource);
    const key = keyOf(obj);
    const prev = b.get(key);
    this.rv += 1;
    obj.metadata.resourceVersion = String(this.rv);
    b.set(key, obj);
    if (!prev) this.sorted.set(resource, null);
    const ev: StoreEvent = prev ? { type: 'MODIFIED', resource, rv: this.rv, object: obj, prev } : { type: 'ADDED', resource, rv: this.rv, object: obj };
    this.record(ev);
    return ev;
  }

  /** Removes an object. The DELETED event carries its last state with the deletion's resourceVersion. */
  remove(resource: string, obj: Obj): StoreEvent | undefined {
    const b = this.data.get(resource);
    const key = keyOf(obj);
    const prev = b?.get(key);
    if (!b || !prev) return undefined;
    b.delete(key);
    this.sorted.set(resource, null);
    this.rv += 1;
    const last = { ...prev, metadata: { ...prev.metadata, resourceVersion: String(this.rv) } };
    const ev: StoreEvent = { type: 'DELETED', resource, rv: this.rv, object: last, prev };
    this.record(ev);
    return ev;
  }

  private record(ev: StoreEvent): void {
    let h = this.history.get(ev.resource);
    if (!h) {
      h = { events: [], evicted: 0 };
      this.history.set(ev.resource, h);
    }
    h.events.push(ev);
    while (h.events.length > this.historySize) {
      const old = h.events.shift()!;
      h.evicted = old.rv;
    }
    for (const l of [...this.listeners]) l(ev);
  }

  subscribe(fn: (e: StoreEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * The oldest resourceVersion a watch or a consistent read can start from, as the watch cache
   * reports it in "too old resource version: X (Y)": the oldest kept event's version minus one.
   */
  oldestServable(resource: string): number {
    const h = this.history.get(resource);
    if (!h || h.evicted === 0) return 0;
    return h.events.length ? h.events[0].rv - 1 : h.evicted;
  }

  /** Events of a resource after `rv`, or undefined when the history no longer covers them. */
  eventsSince(resource: string, rv: number): StoreEvent[] | undefined {
    const h = this.history.get(resource);
    if (!h) return [];
    if (h.evicted > 0 && rv < this.oldestServable(resource)) return undefined;
    // Binary search for the first event with rv > the requested one.
    let lo = 0;
    let hi = h.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (h.events[mid].rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return h.events.slice(lo);
  }

  /** The objects of a resource as they were at `rv` (sorted by key), or undefined when too old. */
  snapshotAt(resource: string, rv: number, namespace?: string): Obj[] | undefined {
    if (rv >= this.rv) return this.list(resource, namespace);
    const later = this.eventsSince(resource, rv);
    if (!later) return undefined;
    if (later.length === 0) return this.list(resource, namespace);
    const state = new Map<string, Obj>();
    for (const o of this.list(resource, namespace)) state.set(keyOf(o), o);
    for (let i = later.length - 1; i >= 0; i--) {
      const ev = later[i];
      const key = keyOf(ev.object);
      if (namespace && ev.object.metadata?.namespace !== namespace) continue;
      if (ev.type === 'ADDED') state.delete(key);
      else if (ev.prev) state.set(key, ev.prev);
    }
    return [...state.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => o);
  }
}
