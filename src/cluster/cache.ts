// An indexed store of plain API objects: client-go's thread-safe store and indexer
// (k8s.io/client-go/tools/cache: ThreadSafeStore + Indexers), re-expressed for one event loop.
//
// Objects are kept exactly as given (no copy): callers must treat what they get back as
// read-only, as client-go's listers demand. Index entries of an object are computed when it is
// stored and again, from the stored (unchanged) object, when it is replaced or removed.

import { metaNamespaceKey } from '../core/object-key.js';

/** The values an object is indexed under (client-go's IndexFunc); [] leaves it out of the index. */
export type Indexer<T> = (obj: T) => string[];

/** What every cached object has. */
export interface CachedObject {
  metadata: { name: string; namespace?: string; uid: string; resourceVersion?: string };
}

/** The usual indexers: by namespace, and by the UID of the controller owner reference. */
export const namespaceIndexer: Indexer<CachedObject> = (obj) => (obj.metadata.namespace ? [obj.metadata.namespace] : []);

export const controllerUidIndexer: Indexer<CachedObject & { metadata: { ownerReferences?: { uid: string; controller?: boolean }[] | null } }> = (obj) => {
  const refs = obj.metadata.ownerReferences;
  if (!refs) return [];
  for (const ref of refs) if (ref.controller === true) return [ref.uid];
  return [];
};

export class IndexedCache<T extends CachedObject> {
  private readonly items = new Map<string, T>();
  /** index name → indexed value → keys. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  private readonly indexers: [string, Indexer<T>][];

  constructor(indexers: Record<string, Indexer<T>> = {}) {
    this.indexers = Object.entries(indexers);
    for (const [name] of this.indexers) this.indices.set(name, new Map());
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  size(): number {
    return this.items.size;
  }

  /** The names of the indexes this cache keeps. */
  indexNames(): string[] {
    return this.indexers.map(([name]) => name);
  }

  /** The objects indexed under `value` (client-go's ByIndex); an unknown index throws. */
  byIndex(index: string, value: string): T[] {
    const keys = this.index(index).get(value);
    if (!keys) return [];
    const out: T[] = [];
    for (const key of keys) {
      const obj = this.items.get(key);
      if (obj !== undefined) out.push(obj);
    }
    return out;
  }

  /** The values present in an index (client-go's ListIndexFuncValues). */
  indexValues(index: string): string[] {
    return [...this.index(index).keys()];
  }

  /** Adds or replaces the object under its key; returns the object it replaced. */
  upsert(obj: T): T | undefined {
    const key = metaNamespaceKey(obj.metadata.namespace, obj.metadata.name);
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.reindex(key, old, obj);
    return old;
  }

  /** Removes the object stored under key; returns it. */
  remove(key: string): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    this.reindex(key, old, undefined);
    return old;
  }

  /**
   * Makes the cache hold exactly `all` (client-go's Replace after a list). Reports what changed:
   * objects new to the cache, [old, new] for every key present before and after (as client-go's
   * informer, which notifies an update for each of them; handlers skip unchanged
   * resourceVersions), and the objects that are gone.
   */
  replace(all: T[]): { added: T[]; updated: [T, T][]; removed: T[] } {
    const added: T[] = [];
    const updated: [T, T][] = [];
    const seen = new Set<string>();
    for (const obj of all) {
      const key = metaNamespaceKey(obj.metadata.namespace, obj.metadata.name);
      seen.add(key);
      const old = this.upsert(obj);
      if (old === undefined) added.push(obj);
      else updated.push([old, obj]);
    }
    const removed: T[] = [];
    for (const [key, obj] of this.items) {
      if (!seen.has(key)) removed.push(obj);
    }
    for (const obj of removed) this.remove(metaNamespaceKey(obj.metadata.namespace, obj.metadata.name));
    return { added, updated, removed };
  }

  private index(name: string): Map<string, Set<string>> {
    const index = this.indices.get(name);
    if (!index) throw new Error(`the cache has no index "${name}" (indexes: ${this.indexNames().join(', ') || 'none'})`);
    return index;
  }

  private reindex(key: string, old: T | undefined, cur: T | undefined): void {
    for (const [name, indexer] of this.indexers) {
      const index = this.indices.get(name) as Map<string, Set<string>>;
      const before = old === undefined ? NONE : indexer(old);
      const after = cur === undefined ? NONE : indexer(cur);
      // The common case (a status update): same values, nothing to do.
      if (before.length === after.length && before.every((v, i) => v === after[i])) continue;
      for (const value of before) {
        if (after.includes(value)) continue;
        const keys = index.get(value);
        if (!keys) continue;
        keys.delete(key);
        if (keys.size === 0) index.delete(value);
      }
      for (const value of after) {
        if (before.includes(value)) continue;
        let keys = index.get(value);
        if (!keys) index.set(value, (keys = new Set()));
        keys.add(key);
      }
    }
  }
}

const NONE: readonly string[] = [];
