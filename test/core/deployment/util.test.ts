// deployment_util_test.go's facts: fenceposts, MaxUnavailable, NewRSNewReplicas, IsSaturated,
// the annotations, FindNewReplicaSet / FindOldReplicaSets, DeploymentComplete / Progressing /
// TimedOut.
import { describe, expect, it } from 'vitest';
import {
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  getScaledValueFromIntOrPercent,
  isSaturated,
  maxRevision,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  nextRevision,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  resolveFenceposts,
  revision,
  roundToInt32,
  setCondition,
  setNewReplicaSetAnnotations,
} from '../../../src/core/deployment/util.js';
import { cond, deploy, NOW, rs } from './helpers.js';

describe('ResolveFenceposts (intstr rounding: surge up, unavailable down)', () => {
  it('0% and 0% of 0 → surge 0, unavailable 1', () => {
    expect(resolveFenceposts('0%', '0%', 0)).toEqual({ maxSurge: 0, maxUnavailable: 1, bumpedUnavailable: true });
  });
  it('39% and 39% of 10 → surge 4, unavailable 3', () => {
    expect(resolveFenceposts('39%', '39%', 10)).toMatchObject({ maxSurge: 4, maxUnavailable: 3 });
  });
  it('25% of 4 → 1 and 1; 25% of 3 → surge 1, unavailable 0', () => {
    expect(resolveFenceposts('25%', '25%', 4)).toMatchObject({ maxSurge: 1, maxUnavailable: 1 });
    expect(resolveFenceposts('25%', '25%', 3)).toMatchObject({ maxSurge: 1, maxUnavailable: 0, bumpedUnavailable: false });
  });
  it('invalid strings are errors ("oops", "urg", a bare "5")', () => {
    expect(resolveFenceposts('oops', '39%', 10)).toHaveProperty('error');
    expect(resolveFenceposts('55%', 'urg', 10)).toHaveProperty('error');
    expect(getScaledValueFromIntOrPercent('5', 10, true).ok).toBe(false);
  });
  it('ints are taken as they are', () => {
    expect(resolveFenceposts(2, 0, 10)).toMatchObject({ maxSurge: 2, maxUnavailable: 0 });
  });
});

describe('MaxUnavailable', () => {
  it('less than replicas: 5 of 10', () => expect(maxUnavailable(deploy({ replicas: 10, maxUnavailable: 5 }))).toBe(5));
  it('equal to replicas: 10 of 10', () => expect(maxUnavailable(deploy({ replicas: 10, maxUnavailable: 10 }))).toBe(10));
  it('greater than replicas: capped at 5', () => expect(maxUnavailable(deploy({ replicas: 5, maxUnavailable: 10 }))).toBe(5));
  it('replicas 0 → 0', () => expect(maxUnavailable(deploy({ replicas: 0, maxUnavailable: 10 }))).toBe(0));
  it('Recreate → 0, and no surge', () => {
    expect(maxUnavailable(deploy({ replicas: 10, strategy: 'Recreate' }))).toBe(0);
    expect(maxSurge(deploy({ replicas: 10, strategy: 'Recreate' }))).toBe(0);
  });
});

describe('NewRSNewReplicas', () => {
  it('cannot scale up past replicas + maxSurge: stays at its own size', () => {
    const d = deploy({ replicas: 1, maxSurge: 1 });
    const n = rs({ name: 'web-new', replicas: 5 });
    expect(newRSNewReplicas(d, [n, rs({ name: 'web-a', replicas: 5 })], n)).toMatchObject({ replicas: 5 });
  });
  it('scales up to spec.replicas, never past it', () => {
    const d = deploy({ replicas: 6, maxSurge: 10 });
    const n = rs({ name: 'web-new', replicas: 2 });
    expect(newRSNewReplicas(d, [n, rs({ name: 'web-a', replicas: 4 })], n)).toMatchObject({ replicas: 6 });
  });
  it('scales up by the room maxSurge leaves: 10 + 2 − 10 = 2', () => {
    const d = deploy({ replicas: 10, maxSurge: 2 });
    const n = rs({ name: 'web-new', replicas: 0 });
    expect(newRSNewReplicas(d, [n, rs({ name: 'web-a', replicas: 10 })], n)).toMatchObject({ replicas: 2, maxTotal: 12, current: 10 });
  });
  it('Recreate: spec.replicas', () => {
    const d = deploy({ replicas: 3, strategy: 'Recreate' });
    const n = rs({ name: 'web-new', replicas: 1 });
    expect(newRSNewReplicas(d, [n], n)).toMatchObject({ replicas: 3 });
  });
});

describe('IsSaturated', () => {
  const d = deploy({ replicas: 3 });
  it('all replicas, annotated and available', () => expect(isSaturated(d, rs({ name: 'web-a', replicas: 3, desired: 3 }))).toBe(true));
  it('no desired annotation → false', () => expect(isSaturated(d, rs({ name: 'web-a', replicas: 3 }))).toBe(false));
  it('not all available → false', () => expect(isSaturated(d, rs({ name: 'web-a', replicas: 3, desired: 3, available: 2 }))).toBe(false));
  it('another desired count → false', () => expect(isSaturated(d, rs({ name: 'web-a', replicas: 3, desired: 4 }))).toBe(false));
});

describe('SetNewReplicaSetAnnotations', () => {
  it('a new ReplicaSet gets the revision and the replicas annotations', () => {
    const a: Record<string, string> = {};
    expect(setNewReplicaSetAnnotations(deploy({ replicas: 4 }), a, 3n, false)).toBe(true);
    expect(a).toEqual({ [REVISION_ANNOTATION]: '3', 'deployment.kubernetes.io/desired-replicas': '4', 'deployment.kubernetes.io/max-replicas': '5' });
  });
  it('a lower revision is raised and kept in revision-history (a rollback)', () => {
    const a: Record<string, string> = { [REVISION_ANNOTATION]: '1' };
    expect(setNewReplicaSetAnnotations(deploy(), a, 3n, true)).toBe(true);
    expect(a[REVISION_ANNOTATION]).toBe('3');
    expect(a[REVISION_HISTORY_ANNOTATION]).toBe('1');
    a[REVISION_ANNOTATION] = '5';
    setNewReplicaSetAnnotations(deploy(), a, 6n, true);
    expect(a[REVISION_HISTORY_ANNOTATION]).toBe('1,5');
  });
  it('revisions are int64: one above 2^53 keeps its digits; one past int64 is not a number (strconv.ParseInt)', () => {
    const big: Record<string, string> = { [REVISION_ANNOTATION]: '3546343826724305832' };
    expect(revision({ metadata: { annotations: big } })).toBe(3546343826724305832n);
    expect(nextRevision(maxRevision([rs({ name: 'web-a', replicas: 1, annotations: big })]))).toBe(3546343826724305833n);
    expect(setNewReplicaSetAnnotations(deploy(), { ...big }, 3546343826724305833n, true)).toBe(true);
    const a: Record<string, string> = { ...big };
    setNewReplicaSetAnnotations(deploy(), a, 3546343826724305833n, true);
    expect([a[REVISION_ANNOTATION], a[REVISION_HISTORY_ANNOTATION]]).toEqual(['3546343826724305833', '3546343826724305832']);
    expect(revision({ metadata: { annotations: { [REVISION_ANNOTATION]: '9223372036854775808' } } })).toBeNull();
    expect(revision({ metadata: { annotations: { [REVISION_ANNOTATION]: '+7' } } })).toBe(7n);
    expect(revision({ metadata: {} })).toBe(0n);
    // Go's int64 addition wraps: MaxInt64 + 1 is MinInt64
    expect(nextRevision(9223372036854775807n)).toBe(-9223372036854775808n);
  });
  it('a higher revision is left alone; deployment annotations are copied except the skipped ones', () => {
    const a: Record<string, string> = { [REVISION_ANNOTATION]: '7' };
    const d = deploy({ annotations: { team: 'a', [REVISION_ANNOTATION]: '9', 'kubectl.kubernetes.io/last-applied-configuration': '{}' } });
    expect(setNewReplicaSetAnnotations(d, a, 3n, true)).toBe(true);
    expect(a).toEqual({ [REVISION_ANNOTATION]: '7', team: 'a' });
    expect(setNewReplicaSetAnnotations(d, a, 3n, true)).toBe(false);
  });
});

describe('FindNewReplicaSet / FindOldReplicaSets (EqualIgnoreHash)', () => {
  const d = deploy({ image: 'nginx:1.27' });
  const oldest = rs({ name: 'web-a', replicas: 1, image: 'nginx:1.27', ageSeconds: 300 });
  const newer = rs({ name: 'web-b', replicas: 1, image: 'nginx:1.27', ageSeconds: 100 });
  const other = rs({ name: 'web-c', replicas: 0, image: 'nginx:1.26', ageSeconds: 200 });
  it('the oldest ReplicaSet with the template (hash label ignored)', () => {
    expect(findNewReplicaSet(d, [newer, other, oldest])?.metadata.name).toBe('web-a');
  });
  it('old: all but the new one; required: those with replicas', () => {
    const r = findOldReplicaSets(d, [newer, other, oldest]);
    expect(r.all.map((x) => x.metadata.name)).toEqual(['web-b', 'web-c']);
    expect(r.required.map((x) => x.metadata.name)).toEqual(['web-b']);
  });
  it('a missing field equals its zero value', () => {
    expect(
      equalIgnoreHash(
        { metadata: { labels: { a: '1' } }, spec: { containers: [{ name: 'c' }] } },
        { metadata: { labels: { a: '1', 'pod-template-hash': 'x' }, annotations: {} }, spec: { containers: [{ name: 'c', args: [] }] } },
      ),
    ).toBe(true);
    expect(equalIgnoreHash({ spec: { containers: [{ name: 'c', image: 'a' }] } }, { spec: { containers: [{ name: 'c', image: 'b' }] } })).toBe(false);
  });
});

describe('conditions and progress', () => {
  it('SetDeploymentCondition keeps the condition when status and reason are the same, else moves it last', () => {
    const s = { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 5000), cond('Available', 'True', 'MinimumReplicasAvailable', 5000)] };
    setCondition(s, cond('Progressing', 'True', 'ReplicaSetUpdated', 0));
    expect(s.conditions[0].lastUpdateTime).toBe(cond('x', '', '', 5000).lastUpdateTime);
    setCondition(s, cond('Progressing', 'True', 'NewReplicaSetAvailable', 0));
    expect(s.conditions.map((c) => c.type)).toEqual(['Available', 'Progressing']);
    // same status: lastTransitionTime kept
    expect(s.conditions[1].lastTransitionTime).toBe(cond('x', '', '', 5000).lastTransitionTime);
  });
  it('DeploymentComplete needs updated, replicas and available at spec.replicas and the generation observed', () => {
    const d = deploy({ replicas: 3, generation: 2 });
    expect(deploymentComplete(d, { updatedReplicas: 3, replicas: 3, availableReplicas: 3, observedGeneration: 2 })).toBe(true);
    expect(deploymentComplete(d, { updatedReplicas: 3, replicas: 3, availableReplicas: 3, observedGeneration: 1 })).toBe(false);
    expect(deploymentComplete(d, { updatedReplicas: 2, replicas: 3, availableReplicas: 3, observedGeneration: 2 })).toBe(false);
    expect(deploymentComplete(d, { updatedReplicas: 3, replicas: 4, availableReplicas: 3, observedGeneration: 2 })).toBe(false);
  });
  it('DeploymentProgressing: more updated, fewer old, more ready or more available', () => {
    const d = deploy({ status: { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 } });
    expect(deploymentProgressing(d, { replicas: 4, updatedReplicas: 2, readyReplicas: 3, availableReplicas: 3 })).toBe(true);
    expect(deploymentProgressing(d, { replicas: 3, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 })).toBe(true);
    expect(deploymentProgressing(d, { replicas: 4, updatedReplicas: 1, readyReplicas: 4, availableReplicas: 3 })).toBe(true);
    expect(deploymentProgressing(d, { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 4 })).toBe(true);
    expect(deploymentProgressing(d, { replicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3 })).toBe(false);
  });
  it('DeploymentTimedOut: lastUpdateTime + deadline before now; never after NewReplicaSetAvailable', () => {
    const d = deploy({ progressDeadlineSeconds: 60 });
    expect(deploymentTimedOut(d, { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 61000)] }, NOW)).toBe(true);
    expect(deploymentTimedOut(d, { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 60000)] }, NOW)).toBe(false);
    expect(deploymentTimedOut(d, { conditions: [cond('Progressing', 'True', 'NewReplicaSetAvailable', 6000000)] }, NOW)).toBe(false);
    expect(deploymentTimedOut(d, { conditions: [cond('Progressing', 'False', 'ProgressDeadlineExceeded', 0)] }, NOW)).toBe(true);
    expect(
      deploymentTimedOut(deploy({ progressDeadlineSeconds: null }), { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 6000000)] }, NOW),
    ).toBe(false);
  });
  it('RoundToInt32 rounds half away from zero', () => {
    expect([roundToInt32(2.5), roundToInt32(-2.5), roundToInt32(1.49), roundToInt32(-0.4)]).toEqual([3, -3, 1, 0]);
  });
});
