// The rollout prediction: both controllers in turn on an in-memory namespace, under a kubelet that
// makes new pods ready after a fixed delay. The expected size sequences are those upstream's rules
// imply step by step (rolling.go's arithmetic, worked by hand in each case's comment).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { predictRollout, type RolloutInput, type RolloutResult } from '../../../src/core/deployment/rollout.js';
import type { Deployment, Pod } from '../../../src/core/types.js';
import { bh, deploy, NOW, rs, type DeployOpts } from './helpers.js';
import { pod } from '../rules/helpers.js';

/** A Deployment at rest with `replicas` ready pods of web-old, then its image changed. */
function rolloutOf(o: DeployOpts & { replicas: number }, extra: Partial<RolloutInput> = {}): RolloutResult {
  const old = rs({ name: 'web-old', replicas: o.replicas, revision: 1, desired: o.replicas, image: 'nginx:1.26' });
  const pods: Pod[] = [];
  for (let i = 0; i < o.replicas; i++)
    pods.push(
      pod({
        name: `web-old-${String(i).padStart(4, '0')}`,
        owner: 'uid-web-old',
        labels: { ...old.spec.template!.metadata!.labels! },
        ready: true,
        node: `node-${i % 3}`,
      }),
    );
  for (const p of pods) p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-old', uid: 'uid-web-old', controller: true }];
  const d: Deployment = deploy({
    ...o,
    image: 'nginx:1.27',
    generation: 2,
    status: { observedGeneration: 1, replicas: o.replicas, updatedReplicas: o.replicas },
  });
  return predictRollout({
    deployment: d,
    replicaSets: [old],
    pods,
    nowMs: NOW,
    behaviour: bh(35),
    assumptions: { podReadyAfterSeconds: 5, podGoneAfterSeconds: 0 },
    ...extra,
  });
}

const NEW = 'web-<pod-template-hash>';
const sizeSeq = (r: RolloutResult) => r.sizes.map((s) => `${s.at}s new=${s[NEW] ?? 0} old=${s['web-old'] ?? 0}`);

describe('predictRollout: RollingUpdate', () => {
  it('4 replicas, 25%/25%: surge 1, unavailable 1, in steps of one ready pod', () => {
    // maxSurge ceil(25% of 4) = 1 → at most 5 pods; maxUnavailable floor(25% of 4) = 1 → at least 3 available.
    // t=0: new created with 1 (4 + 1 = 5 pods); old 4→3 (5 pods − 3 − 1 unavailable new = 1 may go); new
    //      1→2 (spec total 4 < 5); old stays (5 − 3 − 2 unavailable new = 0).
    // t=5: both new pods ready: old 3→1 (5 available − 3); new 2→4 (5 − 3); t=10: old 1→0.
    const r = rolloutOf({ replicas: 4 });
    expect(sizeSeq(r)).toEqual(['0s new=1 old=4', '0s new=1 old=3', '0s new=2 old=3', '5s new=2 old=1', '5s new=4 old=1', '10s new=4 old=0']);
    expect(r.end).toEqual({ state: 'complete', at: 10 });
    // every pod of web-old is deleted exactly once, by its ReplicaSet, ranked
    const deleted = r.steps.filter((s) => s.verb === 'delete' && s.controller === 'replicaset');
    expect(deleted).toHaveLength(4);
    expect(new Set(deleted.map((s) => (s as { pod: string }).pod)).size).toBe(4);
  });

  it('maxUnavailable 0: the old ReplicaSet shrinks only as new pods turn ready', () => {
    // 3 replicas, maxSurge 1, maxUnavailable 0: new 1 at t=0, old 3→2 at t=5 once it is available, new 1→2 …
    const r = rolloutOf({ replicas: 3, maxSurge: 1, maxUnavailable: 0 });
    expect(sizeSeq(r)).toEqual(['0s new=1 old=3', '5s new=1 old=2', '5s new=2 old=2', '10s new=2 old=1', '10s new=3 old=1', '15s new=3 old=0']);
    expect(r.end).toEqual({ state: 'complete', at: 15 });
  });

  it('stalls with maxUnavailable 0 when new pods never turn ready, and says why', () => {
    const r = rolloutOf(
      { replicas: 3, maxSurge: 1, maxUnavailable: 0, progressDeadlineSeconds: null },
      { assumptions: { podReadyAfterSeconds: null, podGoneAfterSeconds: 0 } },
    );
    expect(sizeSeq(r)).toEqual(['0s new=1 old=3']);
    expect(r.end).toMatchObject({ state: 'stalled', reason: 'PodsNeverReady' });
  });

  it('stalls at the progress deadline', () => {
    const r = rolloutOf(
      { replicas: 3, maxSurge: 1, maxUnavailable: 0, progressDeadlineSeconds: 60 },
      { assumptions: { podReadyAfterSeconds: null, podGoneAfterSeconds: 0 } },
    );
    expect(r.end).toMatchObject({ state: 'stalled', reason: 'ProgressDeadlineExceeded' });
    expect(r.end.at).toBeGreaterThanOrEqual(60);
  });
});

describe('predictRollout: Recreate', () => {
  it('deletes every old pod before the new ReplicaSet gets any replica', () => {
    const r = rolloutOf({ replicas: 3, strategy: 'Recreate' }, { assumptions: { podReadyAfterSeconds: 5, podGoneAfterSeconds: 10 } });
    // t=0: old 3→0; the pods terminate for 10 s; t=10: new created with 3; t=15 ready.
    expect(sizeSeq(r)).toEqual(['0s new=0 old=0', '10s new=3 old=0']);
    const firstCreate = r.steps.findIndex((s) => s.controller === 'replicaset' && s.verb === 'create');
    const lastDelete = r.steps.map((s) => s.controller === 'replicaset' && s.verb === 'delete').lastIndexOf(true);
    expect(lastDelete).toBeLessThan(firstCreate);
    expect(r.end).toEqual({ state: 'complete', at: 15 });
  });
});

describe('predictRollout: properties', () => {
  it('never exceeds replicas + maxSurge pods, never a negative size, and ends with every replica on the new ReplicaSet', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 }), (replicas, surge, unavailable) => {
        fc.pre(surge + unavailable > 0);
        const r = rolloutOf({ replicas, maxSurge: surge, maxUnavailable: unavailable });
        expect(r.end.state).toBe('complete');
        for (const s of r.sizes) {
          const total = (s[NEW] ?? 0) + (s['web-old'] ?? 0);
          expect(total).toBeLessThanOrEqual(replicas + surge);
          expect(s[NEW] ?? 0).toBeGreaterThanOrEqual(0);
          expect(s['web-old'] ?? 0).toBeGreaterThanOrEqual(0);
        }
        const last = r.sizes.at(-1)!;
        expect(last[NEW]).toBe(replicas);
        expect(last['web-old'] ?? 0).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('a 1,000-replica rollout with maxSurge 10%, maxUnavailable 0 completes in ten surges', () => {
    // surge 100 at t=0; every 5 s the 100 new pods turn ready: old −100, new +100; old reaches 0 at t=50
    const r = rolloutOf({ replicas: 1000, maxSurge: '10%', maxUnavailable: 0 });
    expect(r.end).toEqual({ state: 'complete', at: 50 });
    const creates = r.steps.filter((s) => s.controller === 'replicaset' && s.verb === 'create');
    expect(creates.reduce((n, s) => n + (s as { pods: number }).pods, 0)).toBe(1000);
    expect(r.steps.filter((s) => s.controller === 'replicaset' && s.verb === 'delete')).toHaveLength(1000);
  });
});
