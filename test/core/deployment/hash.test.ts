// The pod-template-hash rs-reconcile computes: FNV-32a (checked against the algorithm's published
// vectors), rand.SafeEncodeString's alphabet, the same hash whatever the keys' order, another for
// another template or collisionCount, and the name and labels getNewReplicaSet puts on the RS.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJSON, fnv32a, podTemplateHash, safeEncodeString, withPodTemplateHash } from '../../../src/core/deployment/hash.js';
import type { ReplicaSet } from '../../../src/core/types.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('podTemplateHash', () => {
  it('FNV-32a: the published test vectors', () => {
    expect(fnv32a(bytes(''))).toBe(0x811c9dc5);
    expect(fnv32a(bytes('a'))).toBe(0xe40c292c);
    expect(fnv32a(bytes('foobar'))).toBe(0xbf9cf968);
  });

  it('SafeEncodeString maps each character onto bcdfghjklmnpqrstvwxz2456789', () => {
    // '0' is 48: 48 % 27 = 21 → '4'; '9' is 57: 57 % 27 = 3 → 'f'
    expect(safeEncodeString('09')).toBe('4f');
    expect(podTemplateHash({}, null)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });

  it('the same template in any key order gives the same hash; undefined fields are left out', () => {
    const a = { metadata: { labels: { app: 'web', tier: 'fe' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
    const b = { spec: { containers: [{ image: 'nginx:1.27', name: 'c' }] }, metadata: { labels: { tier: 'fe', app: 'web' }, annotations: undefined } };
    expect(canonicalJSON(a)).toBe(canonicalJSON(b));
    expect(podTemplateHash(a, null)).toBe(podTemplateHash(b, null));
  });

  it('another image, or a collisionCount, gives another hash (and collisionCount 0 is not nil)', () => {
    const t = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });
    expect(podTemplateHash(t('nginx:1.27'), null)).not.toBe(podTemplateHash(t('nginx:1.28'), null));
    const base = podTemplateHash(t('nginx:1.27'), null);
    const counts = new Set([base, ...[0, 1, 2, 3].map((n) => podTemplateHash(t('nginx:1.27'), n))]);
    expect(counts.size).toBe(5);
  });

  it('deterministic for any JSON template', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.nat(1000), { nil: null }), (v, n) => {
        const t = { metadata: { annotations: { x: JSON.stringify(v) } } };
        expect(podTemplateHash(structuredClone(t), n)).toBe(podTemplateHash(t, n));
      }),
    );
  });

  it('withPodTemplateHash names the ReplicaSet <deployment>-<hash> and labels it, its selector and its template', () => {
    const rs: ReplicaSet = {
      metadata: { name: 'web-<pod-template-hash>', namespace: 'default', uid: '', labels: { app: 'web' } },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } } } },
    } as ReplicaSet;
    const out = withPodTemplateHash(rs, 'web', 'abc');
    expect(out.metadata.name).toBe('web-abc');
    expect(out.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': 'abc' });
    expect(out.spec.selector?.matchLabels).toEqual({ app: 'web', 'pod-template-hash': 'abc' });
    expect(out.spec.template?.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': 'abc' });
    expect(rs.metadata.name).toBe('web-<pod-template-hash>'); // the decision's object is left as it was
  });
});
