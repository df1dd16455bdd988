// "Which pods may this sync read" has one interface (core/candidate-pods.ts) and three caches
// answering it: a snapshot's PodIndex (explain, diff), the informer indexers of `run`
// (InformerCandidatePods over the POD_INDEXERS cache) and the journal state of `history`
// (NamespaceState). Property: on random pods, label updates and controllers, all three give the
// same pods in the same order for every question a sync asks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexedCache } from '../../src/cluster/cache.js';
import { POD_INDEXERS, podListersOf } from '../../src/cluster/pod-indexers.js';
import { InformerCandidatePods } from '../../src/controller/candidate-pods.js';
import { candidatesOf, type CandidatePods } from '../../src/core/candidate-pods.js';
import { PodIndex } from '../../src/core/pod-index.js';
import { labelSelectorAsSelector } from '../../src/core/selector.js';
import type { LabelSelector, Pod } from '../../src/core/types.js';
import { NamespaceState } from '../../src/history/journal-state.js';

const NAMESPACES = ['a', 'b'];
const KINDS = ['ReplicaSet', 'ReplicationController'];
const OWNERS = 4; // owner uids u0..u3, named c0..c3 (kind by parity)
const LABELS = fc.dictionary(fc.constantFrom('app', 'tier', 'track'), fc.constantFrom('x', 'y', 'z'), { maxKeys: 3 });

const ownerOf = (i: number) => ({ kind: KINDS[i % 2], name: `c${i}`, uid: `u${i}` });

const refArb = fc.option(fc.record({ owner: fc.nat(OWNERS - 1), otherKind: fc.boolean(), otherName: fc.boolean(), controller: fc.boolean() }), { nil: null });

const podArb = fc.record({ ns: fc.constantFrom(...NAMESPACES), labels: LABELS, ref: refArb, later: fc.option(LABELS, { nil: null }) });
type GenPod = typeof podArb extends fc.Arbitrary<infer T> ? T : never;

const requirementArb = fc
  .record({
    key: fc.constantFrom('app', 'tier', 'track'),
    operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
    values: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { minLength: 1, maxLength: 2 }),
  })
  .map((r) => (r.operator === 'Exists' || r.operator === 'DoesNotExist' ? { key: r.key, operator: r.operator } : r));

const selectorArb: fc.Arbitrary<LabelSelector | null> = fc.option(
  fc.record(
    { matchLabels: fc.option(LABELS, { nil: undefined }), matchExpressions: fc.option(fc.array(requirementArb, { maxLength: 2 }), { nil: undefined }) },
    { requiredKeys: [] },
  ),
  { nil: null },
);

function podOf(i: number, g: GenPod, labels: Record<string, string>): Pod {
  const r = g.ref;
  const owner = r ? ownerOf(r.owner) : null;
  const ref =
    owner && r
      ? [
          {
            apiVersion: 'v1',
            kind: r.otherKind ? 'Deployment' : owner.kind,
            name: r.otherName ? 'other' : owner.name,
            uid: owner.uid,
            controller: r.controller,
          },
        ]
      : undefined;
  // names sort as they are listed: the informers' order (by name) is the others' listing order
  const name = `p${String(i).padStart(3, '0')}`;
  return { metadata: { name, namespace: g.ns, uid: `pod-${i}`, labels, ...(ref ? { ownerReferences: ref } : {}) }, status: { phase: 'Running' } } as Pod;
}

/** The three caches after the same history: every pod listed, then some relabelled in place. */
function caches(gen: GenPod[]): Record<string, CandidatePods> {
  const informer = new IndexedCache<Pod>(POD_INDEXERS);
  const journals = new Map(NAMESPACES.map((ns) => [ns, new NamespaceState()]));
  const final: Pod[] = [];
  gen.forEach((g, i) => {
    const p = podOf(i, g, g.labels);
    informer.upsert(p);
    journals.get(g.ns)!.setPod(p.metadata.name, p);
  });
  gen.forEach((g, i) => {
    const p = g.later ? podOf(i, g, g.later) : journals.get(g.ns)!.pods.get(podOf(i, g, {}).metadata.name)!;
    if (g.later) {
      informer.upsert(p);
      journals.get(g.ns)!.setPod(p.metadata.name, p);
    }
    final.push(p);
  });
  // a NamespaceState holds one namespace: the journal's answer for `ns` is that namespace's state's
  const journal: CandidatePods = {
    controlledBy: (ns, uid, owner) => journals.get(ns)!.controlledBy(ns, uid, owner),
    matching: (ns, sel) => journals.get(ns)!.matching(ns, sel),
    compare: (a, b) => journals.get(a.metadata.namespace!)!.compare(a, b),
  };
  return { snapshot: new PodIndex(final), informers: new InformerCandidatePods(podListersOf(informer)), journal };
}

const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata.name);

describe('CandidatePods: snapshot index, informer indexers and journal state agree', () => {
  it('list the same pods in the same order for every sync', () => {
    fc.assert(
      fc.property(
        fc.array(podArb, { maxLength: 40 }),
        fc.array(selectorArb, { minLength: OWNERS, maxLength: OWNERS }),
        fc.boolean(),
        (gen, selectors, byKindAndName) => {
          const all = caches(gen);
          for (const ns of NAMESPACES) {
            selectors.forEach((ls, i) => {
              const r = labelSelectorAsSelector(ls);
              if (!r.ok) return;
              const owner = byKindAndName ? ownerOf(i) : undefined;
              const answers = Object.entries(all).map(([cache, pods]) => ({
                cache,
                matching: names(pods.matching(ns, r.selector)),
                controlledBy: names(pods.controlledBy(ns, ownerOf(i).uid, owner)),
                candidates: names(candidatesOf(pods, ns, ownerOf(i).uid, r.selector, owner)),
              }));
              for (const a of answers.slice(1)) expect({ ...a, cache: answers[0].cache }, `${a.cache} vs ${answers[0].cache}`).toEqual(answers[0]);
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the journal keeps first-seen order, as the whole namespace lists it, when names do not sort that way', () => {
    const state = new NamespaceState();
    const pod = (name: string, labels: Record<string, string>): Pod => ({ metadata: { name, namespace: 'a', uid: name, labels } }) as Pod;
    state.setPod('z', pod('z', { app: 'x' }));
    state.setPod('m', pod('m', { app: 'x' }));
    state.setPod('z', pod('z', { app: 'x', tier: 'y' })); // an update keeps its place
    const sel = labelSelectorAsSelector({ matchLabels: { app: 'x' } });
    if (!sel.ok) throw new Error(sel.error);
    const index = new PodIndex([...state.pods.values()]);
    expect(names(state.matching('a', sel.selector))).toEqual(['z', 'm']);
    expect(names(state.matching('a', sel.selector))).toEqual(names(index.matching('a', sel.selector)));
  });
});
