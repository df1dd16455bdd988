// rolling_test.go's facts: reconcileNewReplicaSet, reconcileOldReplicaSets,
// cleanupUnhealthyReplicas and scaleDownOldReplicaSetsForRollingUpdate, each through one sync of
// a Deployment mid-rollout (old ReplicaSet revision 1 on nginx:1.26, new revision 2 on nginx:1.27).
import { describe, expect, it } from 'vitest';
import type { IntOrString } from '../../../src/core/types.js';
import { REVISION_ANNOTATION } from '../../../src/core/deployment/util.js';
import { acts, cond, decide, deploy, rs } from './helpers.js';

function rollout(o: {
  replicas: number;
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  oldReplicas: number;
  oldAvailable?: number;
  newReplicas: number;
  newAvailable?: number;
}) {
  const d = deploy({
    replicas: o.replicas,
    maxSurge: o.maxSurge ?? 0,
    maxUnavailable: o.maxUnavailable ?? 0,
    annotations: { [REVISION_ANNOTATION]: '2' },
    status: { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 1000)] },
  });
  const old = rs({ name: 'web-old', replicas: o.oldReplicas, available: o.oldAvailable, image: 'nginx:1.26', revision: 1, ageSeconds: 600 });
  const neu = rs({ name: 'web-new', replicas: o.newReplicas, available: o.newAvailable ?? 0, image: 'nginx:1.27', revision: 2, ageSeconds: 60 });
  return decide(d, [old, neu]);
}

describe('reconcileNewReplicaSet', () => {
  it('maxSurge 0 with 10 old: no room, no scale up (the old side may shrink instead)', () => {
    const r = rollout({ replicas: 10, maxSurge: 0, oldReplicas: 10, newReplicas: 0 });
    expect(acts(r).some((a) => a.startsWith('scale web-new'))).toBe(false);
  });
  it('maxSurge 2 with 10 old: new 0 → 2', () => {
    expect(acts(rollout({ replicas: 10, maxSurge: 2, oldReplicas: 10, newReplicas: 0 }))).toEqual(['scale web-new 0→2']);
  });
  it('maxSurge 2 with 5 old: new 0 → 7', () => {
    expect(acts(rollout({ replicas: 10, maxSurge: 2, oldReplicas: 5, newReplicas: 0 }))).toEqual(['scale web-new 0→7']);
  });
  it('maxSurge 2 with 10 old and 2 new: no scale up', () => {
    expect(acts(rollout({ replicas: 10, maxSurge: 2, oldReplicas: 10, newReplicas: 2 })).some((a) => a.startsWith('scale web-new'))).toBe(false);
  });
  it('new above spec.replicas: scaled down to it (4 → 2)', () => {
    expect(acts(rollout({ replicas: 2, maxSurge: 2, oldReplicas: 2, newReplicas: 4 }))).toEqual(['scale web-new 4→2']);
  });
  it('the message carries the arithmetic', () => {
    const r = rollout({ replicas: 4, maxSurge: '25%', maxUnavailable: '25%', oldReplicas: 4, oldAvailable: 4, newReplicas: 0 });
    expect(r.actions[0]).toMatchObject({ verb: 'scale', replicaSet: 'web-new', from: 0, to: 1 });
    expect(r.actions[0].message).toContain(
      'maxSurge 25% of 4 = 1 (rounded up), so at most 5 pods; the ReplicaSets have 4, so the new ReplicaSet may grow by 1',
    );
  });
});

describe('reconcileOldReplicaSets (maxSurge 0)', () => {
  it('maxUnavailable 0 (taken as 1): 10 old all available → 9', () => {
    expect(acts(rollout({ replicas: 10, maxUnavailable: 0, oldReplicas: 10, newReplicas: 0 }))).toEqual(['scale web-old 10→9']);
  });
  it('maxUnavailable 2: 10 old all available → 8', () => {
    expect(acts(rollout({ replicas: 10, maxUnavailable: 2, oldReplicas: 10, newReplicas: 0 }))).toEqual(['scale web-old 10→8']);
  });
  it('2 unhealthy old replicas are cleaned up first: 10 → 8 in one write', () => {
    const r = rollout({ replicas: 10, maxUnavailable: 2, oldReplicas: 10, oldAvailable: 8, newReplicas: 0 });
    expect(acts(r)).toEqual(['scale web-old 10→8']);
    expect(r.actions[0].message).toContain('has 8 of 10 replicas available');
  });
  it('1 unhealthy cleaned up, then 1 available scaled down: 10 → 9 → 8', () => {
    expect(acts(rollout({ replicas: 10, maxUnavailable: 2, oldReplicas: 10, oldAvailable: 9, newReplicas: 0 }))).toEqual([
      'scale web-old 10→9',
      'scale web-old 9→8',
    ]);
  });
  it("the new ReplicaSet's unavailable pods block further scale down (8 old, 2 new not available)", () => {
    const r = rollout({ replicas: 10, maxUnavailable: 2, oldReplicas: 8, newReplicas: 2, newAvailable: 0 });
    expect(r.actions).toEqual([]);
  });
});

describe('cleanupUnhealthyReplicas (10 old, 8 ready, 2 unhealthy)', () => {
  // maxCleanupCount = all pods 10 − minAvailable (10 − maxUnavailable) − new unavailable 0 = maxUnavailable
  const cleaned = (maxCleanup: number) => rollout({ replicas: 10, maxUnavailable: maxCleanup, oldReplicas: 10, oldAvailable: 8, newReplicas: 0 });
  it('max 1 → 1 cleaned', () => expect(acts(cleaned(1))[0]).toBe('scale web-old 10→9'));
  it('max 3 → 2 cleaned (only the unhealthy ones)', () => expect(acts(cleaned(3))[0]).toBe('scale web-old 10→8'));
  it('10 old all ready → nothing to clean, the available step scales', () => {
    const r = rollout({ replicas: 10, maxUnavailable: 3, oldReplicas: 10, oldAvailable: 10, newReplicas: 0 });
    expect(acts(r)).toEqual(['scale web-old 10→7']);
    expect(r.actions[0].message).toContain('10 are available');
  });
});

describe('scaleDownOldReplicaSetsForRollingUpdate (maxSurge 0, 10 old)', () => {
  it('maxUnavailable 2, 8 ready: nothing (8 ≤ minAvailable 8) after cleaning the 2 unhealthy', () => {
    expect(acts(rollout({ replicas: 10, maxUnavailable: 2, oldReplicas: 10, oldAvailable: 8, newReplicas: 0 }))).toEqual(['scale web-old 10→8']);
  });
  it('maxUnavailable 2, 0 or 1 ready: only unhealthy ones go, at most 2', () => {
    expect(acts(rollout({ replicas: 10, maxUnavailable: 2, oldReplicas: 10, oldAvailable: 0, newReplicas: 0 }))).toEqual(['scale web-old 10→8']);
    expect(acts(rollout({ replicas: 10, maxUnavailable: 2, oldReplicas: 10, oldAvailable: 1, newReplicas: 0 }))).toEqual(['scale web-old 10→8']);
  });
  it('oldest ReplicaSet first, across several old ones', () => {
    const d = deploy({
      replicas: 4,
      maxSurge: 0,
      maxUnavailable: 3,
      annotations: { [REVISION_ANNOTATION]: '3' },
      status: { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 1000)] },
    });
    const a = rs({ name: 'web-a', replicas: 2, image: 'nginx:1.25', revision: 1, ageSeconds: 900 });
    const b = rs({ name: 'web-b', replicas: 2, image: 'nginx:1.26', revision: 2, ageSeconds: 600 });
    const n = rs({ name: 'web-n', replicas: 0, image: 'nginx:1.27', revision: 3, ageSeconds: 60 });
    expect(acts(decide(d, [b, n, a]))).toEqual(['scale web-a 2→0', 'scale web-b 2→1']);
  });
});
