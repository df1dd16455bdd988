// IndexedCache: keys, indexes kept in step with every upsert/remove/replace.
import { describe, expect, it } from 'vitest';
import { IndexedCache, controllerUidIndexer, namespaceIndexer, type Indexer } from '../../src/cluster/cache.js';
import type { Pod } from '../../src/core/types.js';
import { metaNamespaceKey } from '../../src/core/object-key.js';

const keyOf = (o: { metadata: { namespace?: string; name: string } }) => metaNamespaceKey(o.metadata.namespace, o.metadata.name);

function mk(name: string, ns: string | undefined, o: { owner?: string; rv?: string; uid?: string; labels?: Record<string, string> } = {}): Pod {
  return {
    metadata: {
      name,
      ...(ns !== undefined ? { namespace: ns } : {}),
      uid: o.uid ?? `uid-${ns}-${name}`,
      resourceVersion: o.rv ?? '1',
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.owner, uid: o.owner, controller: true }] } : {}),
    },
  };
}

const labelIndexer: Indexer<Pod> = (p) => Object.entries(p.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`);

function newCache() {
  return new IndexedCache<Pod>({ namespace: namespaceIndexer, controllerUid: controllerUidIndexer, label: labelIndexer });
}

/** Every index answers exactly what a scan of the cache answers. */
function expectIndexesConsistent(cache: IndexedCache<Pod>, indexers: Record<string, Indexer<Pod>>) {
  for (const [name, fn] of Object.entries(indexers)) {
    const expected = new Map<string, string[]>();
    for (const obj of cache.list()) for (const v of fn(obj)) expected.set(v, [...(expected.get(v) ?? []), keyOf(obj)]);
    expect(new Set(cache.indexValues(name)), `values of index ${name}`).toEqual(new Set(expected.keys()));
    for (const [v, keys] of expected) expect(cache.byIndex(name, v).map(keyOf).sort(), `${name}=${v}`).toEqual(keys.sort());
  }
}

const INDEXERS = { namespace: namespaceIndexer, controllerUid: controllerUidIndexer, label: labelIndexer } as Record<string, Indexer<Pod>>;

describe('IndexedCache', () => {
  it('keys objects by namespace/name, cluster-scoped ones by name', () => {
    const cache = newCache();
    const a = mk('a', 'ns1');
    const n = mk('node-0', undefined);
    expect(cache.upsert(a)).toBeUndefined();
    expect(cache.upsert(n)).toBeUndefined();
    expect(cache.get('ns1/a')).toBe(a);
    expect(cache.get('node-0')).toBe(n);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.keys().sort()).toEqual(['node-0', 'ns1/a']);
    expect(cache.size()).toBe(2);
    expect(cache.list()).toEqual(expect.arrayContaining([a, n]));
  });

  it('upsert returns the object it replaced and stores the new one as given (no copy)', () => {
    const cache = newCache();
    const v1 = mk('a', 'ns1', { rv: '1' });
    const v2 = mk('a', 'ns1', { rv: '2' });
    cache.upsert(v1);
    expect(cache.upsert(v2)).toBe(v1);
    expect(cache.get('ns1/a')).toBe(v2);
    expect(cache.size()).toBe(1);
  });

  it('remove returns the stored object, and undefined for an unknown key', () => {
    const cache = newCache();
    const a = mk('a', 'ns1', { owner: 'rs1' });
    cache.upsert(a);
    expect(cache.remove('ns1/a')).toBe(a);
    expect(cache.remove('ns1/a')).toBeUndefined();
    expect(cache.size()).toBe(0);
    expect(cache.byIndex('namespace', 'ns1')).toEqual([]);
    expect(cache.byIndex('controllerUid', 'rs1')).toEqual([]);
    expect(cache.indexValues('controllerUid')).toEqual([]);
  });

  it('moves an object between index values when an update changes them (owner references, labels)', () => {
    const cache = newCache();
    cache.upsert(mk('a', 'ns1', { owner: 'rs1', labels: { app: 'web', tier: 'fe' } }));
    cache.upsert(mk('b', 'ns1', { owner: 'rs1', labels: { app: 'web' } }));
    cache.upsert(mk('c', 'ns2', { owner: 'rs2' }));
    expect(
      cache
        .byIndex('controllerUid', 'rs1')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'b']);

    // adopted by another controller
    cache.upsert(mk('a', 'ns1', { owner: 'rs2', labels: { app: 'web', tier: 'be' } }));
    expect(cache.byIndex('controllerUid', 'rs1').map((p) => p.metadata.name)).toEqual(['b']);
    expect(
      cache
        .byIndex('controllerUid', 'rs2')
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(['a', 'c']);
    expect(cache.byIndex('label', 'tier=fe')).toEqual([]);
    expect(cache.byIndex('label', 'tier=be').map((p) => p.metadata.name)).toEqual(['a']);
    expectIndexesConsistent(cache, INDEXERS);

    // released: no controller reference, out of the index
    cache.upsert(mk('b', 'ns1', { labels: { app: 'web' } }));
    expect(cache.byIndex('controllerUid', 'rs1')).toEqual([]);
    expect(cache.indexValues('controllerUid')).toEqual(['rs2']);
    expectIndexesConsistent(cache, INDEXERS);
  });

  it('indexes only the controller reference, not other owners', () => {
    const cache = newCache();
    const p = mk('a', 'ns1');
    p.metadata.ownerReferences = [
      { apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'node-uid' },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid', controller: true },
    ];
    cache.upsert(p);
    expect(cache.indexValues('controllerUid')).toEqual(['rs-uid']);
  });

  it('replace reports added, updated (old, new) and removed, and leaves exactly the new set', () => {
    const cache = newCache();
    const a1 = mk('a', 'ns1', { owner: 'rs1', rv: '1' });
    const b1 = mk('b', 'ns1', { owner: 'rs1', rv: '1' });
    const c1 = mk('c', 'ns2', { owner: 'rs2', rv: '1' });
    cache.replace([a1, b1, c1]);
    const a2 = mk('a', 'ns1', { owner: 'rs3', rv: '5' });
    const d = mk('d', 'ns3', { rv: '6' });
    const b1again = mk('b', 'ns1', { owner: 'rs1', rv: '1' });
    const diff = cache.replace([a2, b1again, d]);
    expect(diff.added).toEqual([d]);
    expect(diff.updated).toHaveLength(2);
    expect(diff.updated[0][0]).toBe(a1);
    expect(diff.updated[0][1]).toBe(a2);
    expect(diff.updated[1][0]).toBe(b1);
    expect(diff.updated[1][1]).toBe(b1again);
    expect(diff.removed).toEqual([c1]);
    expect(cache.keys().sort()).toEqual(['ns1/a', 'ns1/b', 'ns3/d']);
    expect(cache.byIndex('namespace', 'ns2')).toEqual([]);
    expect(cache.indexValues('namespace').sort()).toEqual(['ns1', 'ns3']);
    expect(cache.byIndex('controllerUid', 'rs3')).toEqual([a2]);
    expectIndexesConsistent(cache, INDEXERS);
  });

  it('replace with nothing empties the cache and every index', () => {
    const cache = newCache();
    cache.replace([mk('a', 'ns1', { owner: 'x', labels: { k: 'v' } })]);
    const diff = cache.replace([]);
    expect(diff.removed.map((p) => p.metadata.name)).toEqual(['a']);
    expect(cache.size()).toBe(0);
    for (const name of ['namespace', 'controllerUid', 'label']) expect(cache.indexValues(name)).toEqual([]);
  });

  it('an unknown index is an error, not an empty answer', () => {
    const cache = newCache();
    expect(() => cache.byIndex('nodeName', 'n1')).toThrow(/no index "nodeName"/);
  });

  it('stays consistent through a long random sequence of writes', () => {
    const cache = newCache();
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const shadow = new Map<string, Pod>();
    for (let i = 0; i < 3000; i++) {
      const name = `p${rnd(40)}`;
      const ns = `ns${rnd(3)}`;
      const op = rnd(10);
      if (op < 6) {
        const p = mk(name, ns, { owner: rnd(3) === 0 ? undefined : `rs${rnd(4)}`, labels: { app: `a${rnd(3)}` }, rv: String(i) });
        expect(cache.upsert(p)).toBe(shadow.get(keyOf(p)));
        shadow.set(keyOf(p), p);
      } else if (op < 9) {
        const key = `${ns}/${name}`;
        expect(cache.remove(key)).toBe(shadow.get(key));
        shadow.delete(key);
      } else {
        const keep = [...shadow.values()].filter(() => rnd(2) === 0);
        cache.replace(keep);
        shadow.clear();
        for (const p of keep) shadow.set(keyOf(p), p);
      }
    }
    expect(new Set(cache.keys())).toEqual(new Set(shadow.keys()));
    expectIndexesConsistent(cache, INDEXERS);
  });
});
