// The overlap advisories (plan-warnings.ts) look each controller's selector up once in the
// namespace's label index and find the shared pods from those lookups. Property: on random
// namespaces of controllers and pods (some big enough for the label index, some scanned), the
// warnings are those of the pairwise definition: every two controllers of a namespace whose valid,
// non-empty selectors both match an active, labelled pod, in the order the plan's controllers
// first meet each such pod; and each adopted orphan that another controller, not being deleted,
// would adopt too.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planSnapshot } from '../../../src/core/plan.js';
import type { PlanWarning } from '../../../src/core/plan-types.js';
import { labelSelectorAsSelector, type Selector } from '../../../src/core/selector.js';
import type { LabelSelector, Pod, ReplicaSet } from '../../../src/core/types.js';
import { bh, NOW, pod, rs, snap } from './helpers.js';

const NAMESPACES = ['a', 'b'];
const LABELS = fc.dictionary(fc.constantFrom('app', 'tier', 'track'), fc.constantFrom('x', 'y', 'z'), { maxKeys: 3 });

const requirementArb = fc
  .record({
    key: fc.constantFrom('app', 'tier', 'track'),
    operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
    values: fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { minLength: 0, maxLength: 2 }),
  })
  .map((r) => (r.operator === 'Exists' || r.operator === 'DoesNotExist' ? { key: r.key, operator: r.operator } : r));

// null (matches nothing), {} (everything), and the odd invalid one (In with no values)
const selectorArb: fc.Arbitrary<LabelSelector | null> = fc.option(
  fc.record(
    { matchLabels: fc.option(LABELS, { nil: undefined }), matchExpressions: fc.option(fc.array(requirementArb, { maxLength: 2 }), { nil: undefined }) },
    { requiredKeys: [] },
  ),
  { nil: null, freq: 8 },
);

const controllerArb = fc.record({ ns: fc.constantFrom(...NAMESPACES), selector: selectorArb, deleting: fc.constantFrom(false, false, false, true) });
const podArb = fc.record({
  ns: fc.constantFrom(...NAMESPACES),
  labels: fc.option(LABELS, { nil: null }),
  owner: fc.option(fc.nat(5), { nil: null, freq: 2 }),
  phase: fc.constantFrom('Running', 'Running', 'Running', 'Succeeded'),
  deleting: fc.constantFrom(false, false, false, true),
});

const inputArb = fc.record({ controllers: fc.array(controllerArb, { minLength: 1, maxLength: 10 }), pods: fc.array(podArb, { maxLength: 160 }) });
type Input = typeof inputArb extends fc.Arbitrary<infer T> ? T : never;

function snapshotOf(input: Input) {
  const replicaSets: ReplicaSet[] = input.controllers.map((c, i) => rs({ name: `c${i}`, ns: c.ns, selector: c.selector, deleting: c.deleting }));
  const pods: Pod[] = input.pods.map((g, i) =>
    pod({
      name: `p${String(i).padStart(3, '0')}`,
      ns: g.ns,
      labels: g.labels,
      owner: g.owner === null ? undefined : `rs-uid-c${g.owner}`,
      phase: g.phase,
      deleting: g.deleting,
    }),
  );
  return { replicaSets, pods, snapshot: snap({ replicaSets, pods }) };
}

const isActive = (p: Pod) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata.deletionTimestamp;
const isLabelled = (p: Pod) => Object.keys(p.metadata.labels ?? {}).length > 0;

/** The pairwise definition, by scanning: OverlappingSelectors and ContestedAdoption of every controller, keyed by name. */
function pairwise(replicaSets: ReplicaSet[], pods: Pod[]): Map<string, unknown[]> {
  // the plan's controller order: namespace, then name (one kind here)
  const ctrls = [...replicaSets].sort((x, y) =>
    x.metadata.namespace! !== y.metadata.namespace! ? (x.metadata.namespace! < y.metadata.namespace! ? -1 : 1) : x.metadata.name < y.metadata.name ? -1 : 1,
  );
  const selectorOf = (r: ReplicaSet): Selector | null => {
    const s = labelSelectorAsSelector(r.spec.selector);
    return s.ok && !s.selector.nothing && !s.selector.everything ? s.selector : null;
  };
  const both = (x: ReplicaSet, y: ReplicaSet, p: Pod) =>
    x.metadata.namespace === p.metadata.namespace &&
    y.metadata.namespace === p.metadata.namespace &&
    isActive(p) &&
    isLabelled(p) &&
    !!selectorOf(x)?.matches(p.metadata.labels) &&
    !!selectorOf(y)?.matches(p.metadata.labels);
  // where the lookups first meet a pod: its first matching controller, then its place in the listing
  const firstMet = (p: Pod) => [
    ctrls.findIndex((x) => selectorOf(x)?.matches(p.metadata.labels) && x.metadata.namespace === p.metadata.namespace),
    pods.indexOf(p),
  ];
  const byFirstMet = [...pods].sort((p, q) => {
    const [a, b] = [firstMet(p), firstMet(q)];
    return a[0] - b[0] || a[1] - b[1];
  });
  const out = new Map<string, unknown[]>();
  for (const a of ctrls) {
    const warnings: unknown[] = [];
    const shared = new Map<ReplicaSet, string[]>();
    for (const p of byFirstMet) for (const b of ctrls) if (b !== a && both(a, b, p)) shared.set(b, [...(shared.get(b) ?? []), p.metadata.name]);
    for (const [b, names] of shared) warnings.push({ code: 'OverlappingSelectors', controller: b.metadata.name, pods: names.sort() });
    // the orphans a adopts (it is not being deleted and its selector is valid), each wanted by another
    const sel = labelSelectorAsSelector(a.spec.selector);
    const adopted =
      sel.ok && !a.metadata.deletionTimestamp
        ? pods.filter(
            (p) => p.metadata.namespace === a.metadata.namespace && isActive(p) && !p.metadata.ownerReferences && sel.selector.matches(p.metadata.labels),
          )
        : [];
    const rivals = new Map<ReplicaSet, string[]>();
    for (const p of adopted) {
      const sharing = ctrls.filter((b) => both(b, b, p));
      if (sharing.length < 2) continue; // a pod no two controllers share is nobody's rival
      for (const b of sharing) if (b !== a && !b.metadata.deletionTimestamp) rivals.set(b, [...(rivals.get(b) ?? []), p.metadata.name]);
    }
    for (const [b, names] of rivals) warnings.push({ code: 'ContestedAdoption', controller: b.metadata.name, pods: names.sort() });
    out.set(a.metadata.name, warnings);
  }
  return out;
}

const overlapWarnings = (ws: PlanWarning[]) =>
  ws
    .filter((w) => w.code === 'OverlappingSelectors' || w.code === 'ContestedAdoption')
    .map((w) => ({ code: w.code, controller: w.controller?.name, pods: w.pods }));

describe('overlap advisories: the label index gives the pairwise answer', () => {
  it('same OverlappingSelectors and ContestedAdoption warnings, in the same order', () => {
    let sawSeveralOverlaps = false;
    let sawContest = false;
    fc.assert(
      fc.property(inputArb, (input) => {
        const { replicaSets, pods, snapshot } = snapshotOf(input);
        const plan = planSnapshot(snapshot, { now: NOW, behaviour: bh(), source: 'file' });
        const expected = pairwise(replicaSets, pods);
        for (const e of plan.controllers) {
          const got = overlapWarnings(e.warnings);
          sawSeveralOverlaps ||= got.filter((w) => w.code === 'OverlappingSelectors').length > 1;
          sawContest ||= got.some((w) => w.code === 'ContestedAdoption');
          expect(got).toEqual(expected.get(e.name));
        }
      }),
      { numRuns: 300, seed: 20260202 },
    );
    expect({ sawSeveralOverlaps, sawContest }).toEqual({ sawSeveralOverlaps: true, sawContest: true });
  });
});
