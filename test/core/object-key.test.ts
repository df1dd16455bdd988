import { describe, expect, it } from 'vitest';
import { kindKey, metaNamespaceKey, splitMetaNamespaceKey } from '../../src/core/object-key.js';
import { entryKey } from '../../src/core/plan-compare.js';

describe('object keys (client-go MetaNamespaceKeyFunc, SplitMetaNamespaceKey)', () => {
  it('namespace/name, or name alone for a cluster-scoped object; read back to the same parts', () => {
    expect(metaNamespaceKey('shop', 'web')).toBe('shop/web');
    expect(metaNamespaceKey('', 'node-a')).toBe('node-a');
    expect(metaNamespaceKey(undefined, 'node-a')).toBe('node-a');
    expect(splitMetaNamespaceKey('shop/web')).toEqual({ namespace: 'shop', name: 'web' });
    expect(splitMetaNamespaceKey('node-a')).toEqual({ namespace: '', name: 'node-a' });
    expect(splitMetaNamespaceKey('a/b/c')).toBeNull();
    for (const [ns, name] of [
      ['shop', 'web-7d9c5'],
      ['', 'n'],
      ['kube-system', 'a.b'],
    ]) {
      expect(splitMetaNamespaceKey(metaNamespaceKey(ns, name))).toEqual({ namespace: ns, name });
    }
  });

  it('a kind in front where kinds share a map; the plan entry key is one of them', () => {
    expect(kindKey('ReplicaSet', 'web')).toBe('ReplicaSet/web');
    expect(kindKey('ReplicaSet', metaNamespaceKey('shop', 'web'))).toBe('ReplicaSet/shop/web');
    expect(entryKey({ kind: 'ReplicationController', namespace: 'legacy', name: 'db' })).toBe('ReplicationController/legacy/db');
    expect(entryKey({ kind: 'Deployment', namespace: 'shop', name: 'web' })).toBe(kindKey('Deployment', metaNamespaceKey('shop', 'web')));
  });
});
