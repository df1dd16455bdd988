// §8 status: calculateStatus, the skip rule, observedGeneration, terminatingReplicas by version
// and kind, the ReplicaFailure condition, and the availability requeue (§8.3, §8.4).
import { describe, expect, it } from 'vitest';
import { planSnapshot } from '../../../src/core/plan.js';
import type { PlanController } from '../../../src/core/plan-types.js';
import { availabilityRequeueSeconds, calculateStatus, statusNeedsWrite } from '../../../src/core/status.js';
import type { Pod, ReplicaSetCondition, Snapshot } from '../../../src/core/types.js';
import type { Behaviour } from '../../../src/core/versions.js';
import { bh, ctl, DAY, NOW, pod, rc, rs, SECOND, snap } from './helpers.js';

const B35 = bh(35);
function planOf(s: Snapshot, name: string, b: Behaviour = B35, kind = 'ReplicaSet'): PlanController {
  const c = planSnapshot(s, { now: NOW, behaviour: b, source: 'file' }).controllers.find((x) => x.name === name && x.kind === kind);
  if (!c) throw new Error(`${name} not planned`);
  return c;
}
const full = (n: number, gen = 1, extra: Record<string, unknown> = {}) => ({
  replicas: n,
  fullyLabeledReplicas: n,
  readyReplicas: n,
  availableReplicas: n,
  observedGeneration: gen,
  ...extra,
});
const owned = (uid: string, n: number, o: Partial<Parameters<typeof pod>[0]> = {}): Pod[] =>
  Array.from({ length: n }, (_, i) => pod({ name: `p${i}`, owner: uid, ready: true, readyAgo: DAY, ...o }));

describe('§8.1 counts (pitfall 1: before this sync’s creates and deletes)', () => {
  it('desired 5, current 2 → create 3, status.replicas 2', () => {
    const r = rs({ replicas: 5 });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 2) }), 'web');
    expect(c.create.count).toBe(3);
    expect(c.status.replicas).toBe(2);
    expect(c.status.readyReplicas).toBe(2);
  });
  it('desired 1, current 3 → delete 2, status.replicas 3', () => {
    const r = rs({ replicas: 1 });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 3) }), 'web');
    expect(c.delete).toHaveLength(2);
    expect(c.status.replicas).toBe(3);
  });
  it('replicas counts claimed pods: adopted yes; released, terminating, terminal, owned-by-other no', () => {
    const r = rs({ replicas: 9 });
    const u = r.metadata.uid;
    const pods = [
      pod({ name: 'keep', owner: u }),
      pod({ name: 'adopt' }),
      pod({ name: 'release', owner: u, labels: { app: 'x' } }),
      pod({ name: 'term', owner: u, deleting: true }),
      pod({ name: 'done', owner: u, phase: 'Succeeded' }),
      pod({ name: 'other', owner: 'someone' }),
    ];
    expect(planOf(snap({ replicaSets: [r], pods }), 'web').status.replicas).toBe(2);
  });
});

describe('§8.1 fullyLabeledReplicas compares with the TEMPLATE labels (pitfall 13)', () => {
  it('pods must carry every template label with equal values; extra labels allowed; selector irrelevant', () => {
    const r = rs({ replicas: 3, selector: { matchLabels: { app: 'web' } }, templateLabels: { app: 'web', tier: 'fe' } });
    const u = r.metadata.uid;
    const pods = [
      pod({ name: 'a', owner: u, labels: { app: 'web', tier: 'fe', extra: '1' } }),
      pod({ name: 'b', owner: u, labels: { app: 'web' } }),
      pod({ name: 'c', owner: u, labels: { app: 'web', tier: 'be' } }),
    ];
    const c = planOf(snap({ replicaSets: [r], pods }), 'web');
    expect(c.status.replicas).toBe(3);
    expect(c.status.fullyLabeledReplicas).toBe(1);
  });
  it('an empty template label set counts every claimed pod', () => {
    const c = ctl(rs({ templateLabels: {} }));
    const s = calculateStatus(c, [pod({ name: 'a', labels: { x: 'y' } }), pod({ name: 'b', labels: null })], null, null, NOW, B35);
    expect(s.fullyLabeledReplicas).toBe(2);
  });
});

describe('§8.1 ready and available', () => {
  it('ready = first Ready condition True; available also needs minReadySeconds elapsed (<= on 1.35)', () => {
    const r = rs({ replicas: 4, minReadySeconds: 10 });
    const u = r.metadata.uid;
    const pods = [
      pod({ name: 'old', owner: u, ready: true, readyAgo: 11 * SECOND }),
      pod({ name: 'edge', owner: u, ready: true, readyAgo: 10 * SECOND }),
      pod({ name: 'young', owner: u, ready: true, readyAgo: 9 * SECOND }),
      pod({ name: 'notimes', owner: u, ready: true, readyAgo: null }),
      pod({ name: 'notready', owner: u, ready: false, readyAgo: DAY }),
    ];
    const c = planOf(snap({ replicaSets: [r], pods }), 'web');
    expect(c.status.readyReplicas).toBe(4);
    expect(c.status.availableReplicas).toBe(2);
    expect(planOf(snap({ replicaSets: [r], pods }), 'web', bh(33)).status.availableReplicas).toBe(1);
  });
});

describe('§8.1 ReplicaFailure condition', () => {
  const failure: ReplicaSetCondition = {
    type: 'ReplicaFailure',
    status: 'True',
    reason: 'FailedCreate',
    message: 'boom',
    lastTransitionTime: '2025-12-31T00:00:00Z',
  };
  const other: ReplicaSetCondition = { type: 'Custom', status: 'True', reason: 'X', message: 'kept', lastTransitionTime: '2025-12-30T00:00:00Z' };

  it('a clean sync removes an existing ReplicaFailure; other conditions keep their order', () => {
    const r = rs({ replicas: 1, status: { ...full(1), conditions: [other, failure, { ...other, type: 'Later' }] } });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 1) }), 'web');
    expect(c.status.conditions.map((x) => x.type)).toEqual(['Custom', 'Later']);
    expect(c.status.conditions[0]).toMatchObject({ reason: 'X', message: 'kept' });
    expect(c.statusChanged).toBe(true);
  });
  it('removal also happens when manageReplicas is skipped because the RS is being deleted (pitfall 4)', () => {
    const r = rs({ replicas: 3, deleting: true, status: { ...full(1), conditions: [failure] } });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 1) }), 'web');
    expect(c.skip?.reason).toBe('ControllerDeleting');
    expect(c.status.conditions).toEqual([]);
  });
  it('a manage error adds ReplicaFailure when absent: FailedCreate (fewer), FailedDelete (more), "" (equal)', () => {
    const c = ctl(rs({ replicas: 2 }));
    const one = [pod({ name: 'a' })];
    const three = [pod({ name: 'a' }), pod({ name: 'b' }), pod({ name: 'c' })];
    const two = [pod({ name: 'a' }), pod({ name: 'b' })];
    const add = (pods: Pod[]) => calculateStatus(c, pods, null, 'the error text', NOW, B35).conditions;
    expect(add(one)).toEqual([
      { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'the error text', lastTransitionTime: '2026-01-01T00:00:00Z' },
    ]);
    expect(add(three)[0]).toMatchObject({ reason: 'FailedDelete', message: 'the error text' });
    expect(add(two)[0].reason).toBe('');
  });
  it('an existing ReplicaFailure is left exactly as it is on an error (never updated in place)', () => {
    const c = ctl(rs({ replicas: 2, status: { ...full(3), conditions: [failure] } }));
    const s = calculateStatus(c, [pod({ name: 'a' }), pod({ name: 'b' }), pod({ name: 'c' })], null, 'other error', NOW, B35);
    expect(s.conditions).toEqual([failure]);
  });
  it('§6.1 step 6: a template without labels is refused locally → FailedCreate condition, no availability requeue', () => {
    const r = rs({ replicas: 2, selector: {}, templateLabels: {}, minReadySeconds: 10 });
    const c = planOf(snap({ replicaSets: [r] }), 'web');
    expect(c.status.conditions).toHaveLength(1);
    expect(c.status.conditions[0]).toMatchObject({
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: 'unable to create pods, no labels',
    });
  });
});

describe('§8.2 the skip rule and observedGeneration', () => {
  it('nothing changed and generation == observedGeneration → no write', () => {
    const r = rs({ replicas: 2, generation: 4, status: full(2, 4, { terminatingReplicas: 0 }) });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 2) }), 'web');
    expect(c.statusChanged).toBe(false);
    expect(c.status.observedGeneration).toBe(4);
    expect(c.inSync).toBe(true);
  });
  it('generation ≠ observedGeneration alone → write, observedGeneration set to generation', () => {
    const r = rs({ replicas: 2, generation: 5, status: full(2, 4, { terminatingReplicas: 0 }) });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 2) }), 'web');
    expect(c.statusChanged).toBe(true);
    expect(c.status.observedGeneration).toBe(5);
    expect(c.inSync).toBe(false);
  });
  it('observedGeneration ahead of generation is also "not equal" → write, set to generation', () => {
    const r = rs({ replicas: 2, generation: 3, status: full(2, 7, { terminatingReplicas: 0 }) });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 2) }), 'web');
    expect(c.statusChanged).toBe(true);
    expect(c.status.observedGeneration).toBe(3);
  });
  it.each([
    ['replicas', { replicas: 3 }],
    ['fullyLabeledReplicas', { fullyLabeledReplicas: 1 }],
    ['readyReplicas', { readyReplicas: 1 }],
    ['availableReplicas', { availableReplicas: 1 }],
    ['terminatingReplicas', { terminatingReplicas: 2 }],
    ['conditions', { conditions: [{ type: 'Custom', status: 'True' }] as ReplicaSetCondition[] }],
  ])('each compared field: %s differing → write', (_f, patch) => {
    const c = ctl(rs({ replicas: 2, generation: 4, status: full(2, 4, { terminatingReplicas: 0, ...patch }) }));
    const next = calculateStatus(c, owned(c.metadata.uid, 2), 0, null, NOW, B35);
    // Conditions are not touched by calculateStatus except ReplicaFailure: put the expected ones back
    if ('conditions' in patch) next.conditions = [];
    expect(statusNeedsWrite(c, next)).toBe(true);
  });
  it('terminatingReplicas unset ≠ 0 (1.35, RS): a status without the field is written', () => {
    const r = rs({ replicas: 2, generation: 4, status: full(2, 4) });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 2) }), 'web');
    expect(c.status.terminatingReplicas).toBe(0);
    expect(c.statusChanged).toBe(true);
  });
  it('terminatingReplicas unset stays unset on 1.34 (gate off): no write', () => {
    const r = rs({ replicas: 2, generation: 4, status: full(2, 4) });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 2) }), 'web', bh(34));
    expect(c.status.terminatingReplicas).toBeUndefined();
    expect(c.statusChanged).toBe(false);
  });
  it('gate off: a stored terminatingReplicas 0 becomes unset (nil) → unset ≠ 0 → write', () => {
    const r = rs({ replicas: 2, generation: 4, status: full(2, 4, { terminatingReplicas: 0 }) });
    const c = planOf(snap({ replicaSets: [r], pods: owned(r.metadata.uid, 2) }), 'web', bh(34));
    expect(c.status.terminatingReplicas).toBeUndefined();
    expect(c.statusChanged).toBe(true);
  });
});

describe('§2 step 8 / §8.1 terminatingReplicas by version and kind', () => {
  function withTerminating(u: string): Pod[] {
    return [
      pod({ name: 'live', owner: u }),
      pod({ name: 't-owned', owner: u, deleting: true }),
      pod({ name: 't-owned2', owner: u, deleting: true, phase: 'Pending' }),
      pod({ name: 't-owned-nomatch', owner: u, deleting: true, labels: { app: 'x' } }),
      pod({ name: 't-orphan', deleting: true }),
      pod({ name: 't-other', owner: 'someone', deleting: true }),
      pod({ name: 't-terminal', owner: u, deleting: true, phase: 'Failed' }),
      pod({ name: 't-ns', ns: 'elsewhere', owner: u, deleting: true }),
    ];
  }
  it('1.35 RS: counts terminating pods controlled by the RS and matching its selector', () => {
    const r = rs({ replicas: 1 });
    expect(planOf(snap({ replicaSets: [r], pods: withTerminating(r.metadata.uid) }), 'web').status.terminatingReplicas).toBe(2);
  });
  it('1.34 RS: unset; with the gate forced on: counted', () => {
    const r = rs({ replicas: 1 });
    const s = snap({ replicaSets: [r], pods: withTerminating(r.metadata.uid) });
    expect(planOf(s, 'web', bh(34)).status.terminatingReplicas).toBeUndefined();
    expect(planOf(s, 'web', bh(34, { DeploymentReplicaSetTerminatingReplicas: true })).status.terminatingReplicas).toBe(2);
    expect(planOf(s, 'web', bh(35, { DeploymentReplicaSetTerminatingReplicas: false })).status.terminatingReplicas).toBeUndefined();
  });
  it('§13 ReplicationControllers never get terminatingReplicas (controller switch off)', () => {
    const r = rc({ replicas: 1 });
    const s = snap({ rcs: [r], pods: withTerminating(r.metadata.uid) });
    expect(planOf(s, 'web-rc', B35, 'ReplicationController').status.terminatingReplicas).toBeUndefined();
  });
  it('still counted while the RS is being deleted', () => {
    const r = rs({ replicas: 1, deleting: true });
    expect(planOf(snap({ replicaSets: [r], pods: withTerminating(r.metadata.uid) }), 'web').status.terminatingReplicas).toBe(2);
  });
});

describe('§8.4 availability requeue (1.34+)', () => {
  it('soonest remaining time of a ready, not yet available pod', () => {
    const r = rs({ replicas: 3, minReadySeconds: 30 });
    const u = r.metadata.uid;
    const pods = [
      pod({ name: 'a', owner: u, ready: true, readyAgo: 10 * SECOND }), // 20 s left
      pod({ name: 'b', owner: u, ready: true, readyAgo: 25 * SECOND }), // 5 s left
      pod({ name: 'c', owner: u, ready: true, readyAgo: 40 * SECOND }), // available
    ];
    const c = planOf(snap({ replicaSets: [r], pods }), 'web');
    expect(c.status.readyReplicas).toBe(3);
    expect(c.status.availableReplicas).toBe(1);
    expect(c.requeueAfterSeconds).toBe(5);
    expect(planOf(snap({ replicaSets: [r], pods }), 'web', bh(34)).requeueAfterSeconds).toBe(5);
  });
  it('falls back to minReadySeconds when no ready pod has a transition time', () => {
    const r = rs({ replicas: 1, minReadySeconds: 30 });
    const c = planOf(snap({ replicaSets: [r], pods: [pod({ name: 'a', owner: r.metadata.uid, ready: true, readyAgo: null })] }), 'web');
    expect(c.status.readyReplicas).toBe(1);
    expect(c.status.availableReplicas).toBe(0);
    expect(c.requeueAfterSeconds).toBe(30);
  });
  it('null when ready == available, or minReadySeconds is 0', () => {
    const r = rs({ replicas: 2, minReadySeconds: 30 });
    const u = r.metadata.uid;
    expect(
      planOf(snap({ replicaSets: [r], pods: [pod({ name: 'a', owner: u, ready: true, readyAgo: DAY }), pod({ name: 'b', owner: u, ready: false })] }), 'web')
        .requeueAfterSeconds,
    ).toBeNull();
    const z = rs({ replicas: 1 });
    expect(
      planOf(snap({ replicaSets: [z], pods: [pod({ name: 'a', owner: z.metadata.uid, ready: true, readyAgo: null })] }), 'web').requeueAfterSeconds,
    ).toBeNull();
  });
  it('applies whatever spec.replicas is (ready 3 of desired 4, not all available)', () => {
    const r = rs({ replicas: 4, minReadySeconds: 30 });
    const u = r.metadata.uid;
    const pods = [0, 1, 2].map((i) => pod({ name: `p${i}`, owner: u, ready: true, readyAgo: (10 + i) * SECOND }));
    expect(planOf(snap({ replicaSets: [r], pods }), 'web').requeueAfterSeconds).toBe(18);
  });
});

describe('§8.3 legacy requeue (≤ 1.33)', () => {
  it('readyReplicas == spec.replicas and availableReplicas != spec.replicas → exactly minReadySeconds', () => {
    const r = rs({ replicas: 2, minReadySeconds: 30 });
    const u = r.metadata.uid;
    const pods = [pod({ name: 'a', owner: u, ready: true, readyAgo: 25 * SECOND }), pod({ name: 'b', owner: u, ready: true, readyAgo: DAY })];
    expect(planOf(snap({ replicaSets: [r], pods }), 'web', bh(33)).requeueAfterSeconds).toBe(30);
    expect(planOf(snap({ replicaSets: [r], pods }), 'web', bh(35)).requeueAfterSeconds).toBe(5);
  });
  it('ready != spec.replicas → no requeue on ≤ 1.33 (while 1.34+ requeues)', () => {
    const r = rs({ replicas: 4, minReadySeconds: 30 });
    const u = r.metadata.uid;
    const pods = [pod({ name: 'a', owner: u, ready: true, readyAgo: 25 * SECOND })];
    expect(planOf(snap({ replicaSets: [r], pods }), 'web', bh(33)).requeueAfterSeconds).toBeNull();
    expect(planOf(snap({ replicaSets: [r], pods }), 'web', bh(35)).requeueAfterSeconds).toBe(5);
  });
  it('all available → no requeue on ≤ 1.33', () => {
    const r = rs({ replicas: 1, minReadySeconds: 30 });
    expect(
      planOf(snap({ replicaSets: [r], pods: [pod({ name: 'a', owner: r.metadata.uid, ready: true, readyAgo: DAY })] }), 'web', bh(33)).requeueAfterSeconds,
    ).toBeNull();
  });
  it('availabilityRequeueSeconds with minReadySeconds 0 is null on every version', () => {
    const c = ctl(rs({ replicas: 1 }));
    const p = [pod({ name: 'a', ready: true, readyAgo: null })];
    for (const minor of [24, 33, 34, 35]) {
      const b = bh(minor);
      expect(availabilityRequeueSeconds(c, calculateStatus(c, p, null, null, NOW, b), p, NOW, b)).toBeNull();
    }
  });
});
