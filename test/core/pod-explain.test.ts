// explain pod/NAME: the model. Decisions come from the planner (checked against planSnapshot's
// own plan), the orphan reasons from the evidence in the input, the keep cost from re-ranking.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPodExplanation, findPods, MAX_DELETION_COST, podExplanationActs } from '../../src/core/pod-explain.js';
import { planSnapshot, type PlanOptions } from '../../src/core/plan.js';
import type { Pod, Snapshot } from '../../src/core/types.js';
import type { Behaviour } from '../../src/core/versions.js';
import { bh, controllerRefTo, DAY, HOUR, NOW, pod, rs, snap } from './rules/helpers.js';

const B35 = bh(35);
const opts = (behaviour: Behaviour = B35): PlanOptions => ({ now: NOW, behaviour, source: 'file' });

function explain(s: Snapshot, name: string, extra: { replicas?: number; behaviour?: Behaviour } = {}) {
  const [p] = findPods(s, name, null);
  if (!p) throw new Error(`no pod ${name}`);
  return buildPodExplanation({ snapshot: s, options: opts(extra.behaviour), pod: p, replicas: extra.replicas });
}

const withGenerateName = (p: Pod, generateName: string): Pod => ({ ...p, metadata: { ...p.metadata, generateName } });

/** web (replicas 3): a is the oldest, c the newest (each in a logarithmic bucket of its own); every pod is ready. */
function threePods(costs: { a?: string; b?: string; c?: string } = {}, replicas = 3): Snapshot {
  return snap({
    replicaSets: [rs({ replicas })],
    pods: [
      pod({ name: 'web-a', owner: 'rs-uid-web', ready: true, readyAgo: 8 * DAY, createdAgo: 8 * DAY, node: 'n1', cost: costs.a }),
      pod({ name: 'web-b', owner: 'rs-uid-web', ready: true, readyAgo: 2 * DAY, createdAgo: 2 * DAY, node: 'n2', cost: costs.b }),
      pod({ name: 'web-c', owner: 'rs-uid-web', ready: true, readyAgo: 1 * HOUR, createdAgo: 1 * HOUR, node: 'n3', cost: costs.c }),
    ],
  });
}

describe('explain pod: owner and controllers', () => {
  it('an owned pod: its owner exists, the controller keeps it, nothing acts', () => {
    const e = explain(threePods(), 'web-b');
    expect(e.kind).toBe('PodExplanation');
    expect(e.pod).toEqual({ namespace: 'default', name: 'web-b', uid: 'pod-uid-web-b', phase: 'Running', ready: true, node: 'n2' });
    expect(e.owner).toEqual({ kind: 'ReplicaSet', name: 'web', uid: 'rs-uid-web', found: true });
    expect(e.orphan).toBeNull();
    expect(e.controllers).toEqual([expect.objectContaining({ kind: 'ReplicaSet', name: 'web', decision: 'keep', reason: 'OwnedMatching', delete: null })]);
    expect(podExplanationActs(e)).toBe(false);
  });

  it('takes every entry from the plan: the decision, reason, message and place in delete[]', () => {
    const s = threePods({}, 1);
    const plan = planSnapshot(s, opts()).controllers[0];
    const e = explain(s, 'web-b');
    const planned = plan.pods.find((p) => p.name === 'web-b')!;
    expect(e.controllers[0]).toMatchObject({ decision: planned.decision, reason: planned.reason, message: planned.message });
    const i = plan.delete.findIndex((d) => d.name === 'web-b');
    expect(e.controllers[0].delete).toEqual({ order: i + 1, reason: plan.delete[i].reason, message: plan.delete[i].message });
    expect(podExplanationActs(e)).toBe(true);
  });

  it('lists every controller that selects the pod (overlap) and none that does not', () => {
    const s = snap({
      replicaSets: [
        rs({ name: 'web' }),
        rs({ name: 'web-canary', selector: { matchLabels: { app: 'web' } } }),
        rs({ name: 'other', selector: { matchLabels: { app: 'other' } } }),
      ],
      pods: [pod({ name: 'stray', ready: true })],
    });
    const e = explain(s, 'stray');
    expect(e.controllers.map((c) => `${c.name}:${c.decision}`)).toEqual(['web:adopt', 'web-canary:adopt']);
    expect(podExplanationActs(e)).toBe(true);
    expect(e.notes.join(' ')).toMatch(/2 controllers would each count this pod/);
  });

  it('a pod whose labels stopped matching: its owner releases it (acts), and it has no place in the order', () => {
    const s = snap({ replicaSets: [rs({})], pods: [pod({ name: 'web-x', owner: 'rs-uid-web', labels: { app: 'debug' } })] });
    const e = explain(s, 'web-x');
    expect(e.controllers).toEqual([expect.objectContaining({ decision: 'release', reason: 'OwnedNotMatching' })]);
    expect(e.deletion).toBeNull();
    expect(podExplanationActs(e)).toBe(true);
  });
});

describe('explain pod: why it is orphaned', () => {
  it('owner deleted with --cascade=orphan: no reference, and no controller has its generateName', () => {
    const s = snap({
      replicaSets: [rs({ name: 'api', selector: { matchLabels: { app: 'api' } } })],
      pods: [withGenerateName(pod({ name: 'worker-7c9d2-k4x8p', labels: { app: 'worker' } }), 'worker-7c9d2-')],
    });
    const e = explain(s, 'worker-7c9d2-k4x8p');
    expect(e.owner).toBeNull();
    expect(e.orphan).toMatchObject({ reason: 'OwnerDeletedOrphaned', likely: true });
    expect(e.orphan!.message).toMatch(/likely deleted with --cascade=orphan/);
    expect(e.orphan!.evidence.join('\n')).toMatch(/generateName "worker-7c9d2-".*no ReplicaSet or ReplicationController named worker-7c9d2/);
    expect(e.controllers).toEqual([]);
    expect(podExplanationActs(e)).toBe(false);
  });

  it('released: the controller its generateName names exists, and its selector no longer matches', () => {
    const s = snap({ replicaSets: [rs({ name: 'web' })], pods: [withGenerateName(pod({ name: 'web-q7w2e', labels: { app: 'web-debug' } }), 'web-')] });
    const e = explain(s, 'web-q7w2e');
    expect(e.orphan).toMatchObject({ reason: 'Released', likely: true });
    expect(e.orphan!.evidence.join('\n')).toContain('label app is "web-debug", not "web"');
  });

  it('owner re-created under a new uid: the reference names an existing controller of that kind and name, another uid', () => {
    const s = snap({ replicaSets: [rs({ name: 'web', uid: 'new-uid' })], pods: [pod({ name: 'web-m2n4b', owner: [controllerRefTo('old-uid', 'web')] })] });
    const e = explain(s, 'web-m2n4b');
    expect(e.owner).toEqual({ kind: 'ReplicaSet', name: 'web', uid: 'old-uid', found: false });
    expect(e.orphan).toMatchObject({ reason: 'OwnerRecreated', likely: false });
    expect(e.orphan!.evidence.join('\n')).toMatch(/exists with uid new-uid/);
    expect(e.controllers).toEqual([expect.objectContaining({ name: 'web', decision: 'ignore', reason: 'OwnedByOther' })]);
    expect(podExplanationActs(e)).toBe(false);
  });

  it('owner not found: the reference names a controller that is not in the input', () => {
    const s = snap({ replicaSets: [], pods: [pod({ name: 'gone-x', owner: [controllerRefTo('ghost-uid', 'gone')] })] });
    const e = explain(s, 'gone-x');
    expect(e.orphan).toMatchObject({ reason: 'OwnerNotFound', likely: true });
    expect(e.orphan!.message).toMatch(/is not in the input/);
  });

  it('the controller its generateName names selects it again: it adopts it, and how it lost its owner is not claimed', () => {
    const s = snap({ replicaSets: [rs({ name: 'web' })], pods: [withGenerateName(pod({ name: 'web-k2j4d' }), 'web-')] });
    const e = explain(s, 'web-k2j4d');
    expect(e.orphan).toMatchObject({ reason: 'Unknown', likely: true });
    expect(e.orphan!.message).toMatch(/whose selector matches it again: how it lost its owner reference is not recorded/);
    expect(e.controllers).toEqual([expect.objectContaining({ name: 'web', decision: 'adopt', reason: 'OrphanMatching' })]);
    expect(e.deletion).toMatchObject({ name: 'web', now: { pods: 1, rank: 1 } }); // an adopted pod counts
  });

  it('read from a cluster, a missing owner "does not exist"', () => {
    const s = snap({ replicaSets: [], pods: [pod({ name: 'gone-x', owner: [controllerRefTo('ghost-uid', 'gone')] })] });
    const e = buildPodExplanation({ snapshot: s, options: { ...opts(), source: 'cluster' }, pod: s.pods[0] });
    expect(e.source).toBe('cluster');
    expect(e.orphan!.message).toMatch(/ReplicaSet gone \(uid ghost-uid\) does not exist: likely deleted/);
  });

  it('no reference and no generateName: nothing to tell, said as such', () => {
    const s = snap({ replicaSets: [], pods: [pod({ name: 'hand-made' })] });
    expect(explain(s, 'hand-made').orphan).toMatchObject({ reason: 'Unknown', likely: true });
  });

  it('a pod of another kind of controller is not called orphaned', () => {
    const s = snap({ replicaSets: [], pods: [pod({ name: 'db-0', owner: [controllerRefTo('sts-uid', 'db', 'StatefulSet')] })] });
    const e = explain(s, 'db-0');
    expect(e.orphan).toBeNull();
    expect(e.owner).toMatchObject({ kind: 'StatefulSet', found: false });
  });
});

describe('explain pod: deletion order now and with --replicas', () => {
  it('ranks every counted pod as upstream would (newest first), now and scaled to 1', () => {
    const s = threePods();
    const rank = (n: string, replicas?: number) => explain(s, n, { replicas }).deletion!;
    expect(['web-a', 'web-b', 'web-c'].map((n) => rank(n).now.rank)).toEqual([3, 2, 1]);
    expect(['web-a', 'web-b', 'web-c'].map((n) => rank(n).now.pickedAtOrBelow)).toEqual([0, 1, 2]);
    const b = rank('web-b', 1);
    expect(b.now).toMatchObject({ replicas: 3, pods: 3, deletes: 0, picked: false, keep: { blockedBy: 'NotPicked' } });
    expect(b.whatIf).toMatchObject({ replicas: 1, pods: 3, deletes: 2, rank: 2, picked: true });
    expect(rank('web-a', 1).whatIf).toMatchObject({ picked: false });
  });

  it('--replicas applies to the controller that counts the pod: its entry shows the what-if deletion', () => {
    const s = threePods();
    expect(podExplanationActs(explain(s, 'web-b'))).toBe(false);
    const e = explain(s, 'web-b', { replicas: 1 });
    expect(e.controllers[0].delete).toMatchObject({ order: 2 });
    expect(podExplanationActs(e)).toBe(true);
  });

  it('--replicas with no controller counting the pod says so', () => {
    const s = snap({ replicaSets: [], pods: [pod({ name: 'hand-made' })] });
    const e = explain(s, 'hand-made', { replicas: 2 });
    expect(e.deletion).toBeNull();
    expect(e.notes[0]).toMatch(/--replicas 2 has nothing to scale/);
  });
});

describe('explain pod: the pod-deletion-cost that keeps it', () => {
  it('is computed: the smallest cost that moves it behind the first kept pod, checked by planning with it', () => {
    // a has cost 5; b and c 0. Scaled to 1, c and b go. b at 5 ties a on cost and still loses on
    // ready time, so 6 is the least that keeps it.
    const s = threePods({ a: '5' });
    const e = explain(s, 'web-b', { replicas: 1 });
    expect(e.deletion!.whatIf!.keep).toMatchObject({ current: 0, cost: 6, blockedBy: null });
    expect(e.deletion!.whatIf!.keep.message).toMatch(/web-a goes in its place/);
    const planned = (cost: string) => planSnapshot(threePods({ a: '5', b: cost }, 1), opts()).controllers[0].delete.map((d) => d.name);
    expect(planned('6')).not.toContain('web-b');
    expect(planned('5')).toContain('web-b');
  });

  it('no cost helps when an earlier criterion decides (not ready), and it says which', () => {
    const s = snap({
      replicaSets: [rs({ replicas: 1 })],
      pods: [pod({ name: 'web-ok', owner: 'rs-uid-web', ready: true }), pod({ name: 'web-sick', owner: 'rs-uid-web', ready: false, cost: '100' })],
    });
    const k = explain(s, 'web-sick').deletion!.now.keep;
    expect(k).toMatchObject({ current: 100, cost: null, blockedBy: 'NotReady' });
    expect(k.message).toMatch(new RegExp(`even at the highest cost \\(${MAX_DELETION_COST}\\).*not ready.*compared before the deletion cost`));
  });

  it('a not-ready pod among other not-ready pods can still be kept by a cost', () => {
    const s = snap({
      replicaSets: [rs({ replicas: 2 })],
      pods: [
        pod({ name: 'web-1', owner: 'rs-uid-web', ready: false, cost: '3' }),
        pod({ name: 'web-2', owner: 'rs-uid-web', ready: false }),
        pod({ name: 'web-3', owner: 'rs-uid-web', ready: true }),
      ],
    });
    // at 3 it ties web-1 on every criterion, and the tie goes by cache order: web-1 first
    expect(explain(s, 'web-2').deletion!.now.keep).toMatchObject({ cost: 3, blockedBy: null });
  });

  it('the PodDeletionCost gate off: the annotation is not compared, so no cost helps', () => {
    const k = explain(threePods(), 'web-c', { replicas: 2, behaviour: bh(35, { PodDeletionCost: false }) }).deletion!.whatIf!.keep;
    expect(k).toMatchObject({ cost: null, blockedBy: 'GateOff' });
    expect(explain(threePods(), 'web-c', { replicas: 2 }).deletion!.whatIf!.keep.cost).toBe(1);
  });

  it('a scale to 0 deletes every pod: no cost helps', () => {
    expect(explain(threePods(), 'web-a', { replicas: 0 }).deletion!.whatIf!.keep).toMatchObject({ cost: null, blockedBy: 'ScaleToZero' });
  });

  it('for any pods, the cost given keeps it and one less does not (planned with the annotation)', () => {
    const podArb = fc.record({
      ready: fc.boolean(),
      cost: fc.integer({ min: -3, max: 3 }),
      ageH: fc.integer({ min: 1, max: 200 }),
      node: fc.constantFrom('n1', 'n2', 'n3'),
    });
    fc.assert(
      fc.property(fc.array(podArb, { minLength: 2, maxLength: 6 }), fc.nat(), fc.nat(), (specs, pick, r) => {
        const build = (override?: { i: number; cost: number }) =>
          snap({
            replicaSets: [rs({ replicas: 5 })],
            pods: specs.map((p, i) =>
              pod({
                name: `web-${i}`,
                owner: 'rs-uid-web',
                ready: p.ready,
                readyAgo: p.ageH * HOUR,
                createdAgo: p.ageH * HOUR,
                node: p.node,
                cost: String(override?.i === i ? override.cost : p.cost),
              }),
            ),
          });
        const replicas = r % specs.length; // at least one pod stays... unless 0
        const i = pick % specs.length;
        const e = explain(build(), `web-${i}`, { replicas });
        const k = e.deletion!.whatIf!;
        const deletedWith = (cost: number) =>
          planSnapshot(build({ i, cost }), { ...opts(), replicasOverride: () => replicas }).controllers[0].delete.some((d) => d.name === `web-${i}`);
        expect(k.picked).toBe(deletedWith(specs[i].cost));
        if (k.keep.cost !== null) {
          expect(deletedWith(k.keep.cost)).toBe(false);
          expect(deletedWith(k.keep.cost - 1)).toBe(true);
        } else if (k.picked && replicas > 0) {
          expect(deletedWith(MAX_DELETION_COST)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});
