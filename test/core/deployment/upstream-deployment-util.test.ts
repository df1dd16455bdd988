// upstream's pkg/controller/deployment/util/deployment_util_test.go, as table tests: each row names
// the upstream test function and case, with its inputs and expected outputs (facts, not code).
// Read at kube v1.36.3 (openshift/microshift release-5.0 ab25d11482f8, which carries
// pkg/controller); the cases that hold for every minor run at each of 1.24 … 1.37, the ones that
// changed run on both sides of the change.
import { describe, expect, it } from 'vitest';
import type { Deployment, DeploymentStatus, IntOrString, ReplicaSet } from '../../../src/core/types.js';
import {
  atoiInt32,
  byRevision,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  getReplicaSetFraction,
  isSaturated,
  MAX_REPLICAS_ANNOTATION,
  maxUnavailable,
  minAvailable,
  newRSNewReplicas,
  nonNegativeInt32,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  replicaCount,
  replicasAnnotation,
  replicasAnnotationsNeedUpdate,
  actualReplicaCount,
  removeCondition,
  resolveFenceposts,
  setCondition,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  terminatingReplicaCount,
  getCondition,
} from '../../../src/core/deployment/util.js';
import { behaviourFor, NEWEST_MINOR, OLDEST_MINOR } from '../../../src/core/versions.js';
import { deploy, rs } from './helpers.js';

const MINORS = Array.from({ length: NEWEST_MINOR - OLDEST_MINOR + 1 }, (_, i) => OLDEST_MINOR + i);
const modeOf = (minor: number) => behaviourFor(minor).behaviour.replicasAnnotations;

function rolling(replicas: number, maxSurge: IntOrString, maxUnavail: IntOrString, status: DeploymentStatus = {}): Deployment {
  const d = deploy({ replicas, maxSurge, maxUnavailable: maxUnavail });
  d.status = status;
  return d;
}

describe('TestEqualIgnoreHash', () => {
  const tpl = (name: string, node: string, annotations: Record<string, string>, labels: Record<string, string>) => ({
    metadata: { name, annotations, labels },
    spec: { nodeName: node },
  });
  const H = 'pod-template-hash';
  const rows: [string, ReturnType<typeof tpl>, ReturnType<typeof tpl>, boolean][] = [
    [
      'Same spec, same labels',
      tpl('foo', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      tpl('foo', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      true,
    ],
    [
      'Same spec, only pod-template-hash label value is different',
      tpl('foo', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      tpl('foo', 'foo-node', {}, { [H]: 'value-2', something: 'else' }),
      true,
    ],
    [
      "Same spec, the former doesn't have pod-template-hash label",
      tpl('foo', 'foo-node', {}, { something: 'else' }),
      tpl('foo', 'foo-node', {}, { [H]: 'value-2', something: 'else' }),
      true,
    ],
    [
      "Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
      tpl('foo', 'foo-node', {}, { something: 'else' }),
      tpl('foo', 'foo-node', {}, { [H]: 'value-2' }),
      false,
    ],
    [
      "Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
      tpl('foo', 'foo-node', {}, { [H]: 'value-1' }),
      tpl('foo', 'foo-node', {}, { something: 'else' }),
      false,
    ],
    [
      'Same spec, the label is different, and the pod-template-hash label value is the same',
      tpl('foo', 'foo-node', {}, { [H]: 'value-1' }),
      tpl('foo', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      false,
    ],
    [
      'Different spec, same labels',
      tpl('foo', 'foo-node', { former: 'value' }, { [H]: 'value-1', something: 'else' }),
      tpl('foo', 'foo-node', { latter: 'value' }, { [H]: 'value-1', something: 'else' }),
      false,
    ],
    [
      'Different spec, different pod-template-hash label value',
      tpl('foo-1', 'foo-node', {}, { [H]: 'value-1', something: 'else' }),
      tpl('foo-2', 'foo-node', {}, { [H]: 'value-2', something: 'else' }),
      false,
    ],
    [
      "Different spec, the former doesn't have pod-template-hash label",
      tpl('foo-1', 'foo-node-1', {}, { something: 'else' }),
      tpl('foo-2', 'foo-node-2', {}, { [H]: 'value-2', something: 'else' }),
      false,
    ],
    ['Different spec, different labels', tpl('foo', 'foo-node-1', {}, { something: 'else' }), tpl('foo', 'foo-node-2', {}, { nothing: 'else' }), false],
  ];
  it.each(rows)('%s (both orders; the labels left as they were)', (_name, a, b, expected) => {
    const before = structuredClone([a, b]);
    expect(equalIgnoreHash(a, b)).toBe(expected);
    expect(equalIgnoreHash(b, a)).toBe(expected);
    expect([a, b]).toEqual(before);
  });
});

describe('TestFindNewReplicaSet / TestFindOldReplicaSets', () => {
  const d = deploy();
  // newRS (created later) and newRSDup (created now) share the Deployment's template; oldRS does not
  const newRS = rs({ name: 'web-hash', replicas: 1, ageSeconds: 0 });
  const newRSDup = rs({ name: 'web-different-hash', replicas: 0, ageSeconds: 60 });
  const oldRS = rs({ name: 'web-old', replicas: 0, image: 'nginx-old-1', ageSeconds: 120 });
  it('Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value', () => {
    expect(findNewReplicaSet(d, [newRS, oldRS])?.metadata.name).toBe('web-hash');
  });
  it('Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template', () => {
    expect(findNewReplicaSet(d, [newRS, oldRS, newRSDup])?.metadata.name).toBe('web-different-hash');
  });
  it('Get nil new ReplicaSet', () => {
    expect(findNewReplicaSet(d, [oldRS])).toBeNull();
  });
  const names = (l: ReplicaSet[]) => l.map((r) => r.metadata.name).sort();
  const rows: [string, ReplicaSet[], string[], string[]][] = [
    ['Get old ReplicaSets', [newRS, oldRS], ['web-old'], []],
    ['Get old ReplicaSets with no new ReplicaSet', [oldRS], ['web-old'], []],
    [
      'Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet',
      [oldRS, newRS, newRSDup],
      ['web-hash', 'web-old'],
      ['web-hash'],
    ],
    ['Get empty old ReplicaSets', [newRS], [], []],
  ];
  it.each(rows)('TestFindOldReplicaSets: %s', (_name, list, all, required) => {
    const r = findOldReplicaSets(d, list);
    expect(names(r.all)).toEqual(all);
    expect(names(r.required)).toEqual(required);
  });
});

describe('TestGetReplicaCountForReplicaSets (spec, status and terminating sums)', () => {
  const mk = (name: string, spec: number, actual: number, terminating: number | undefined, observedGeneration: number) =>
    rs({ name, replicas: spec, actual, terminating, observedGeneration });
  const rs1 = mk('foo-rs', 1, 2, 3, 1);
  const rs2 = mk('bar-rs', 2, 3, 1, 0); // upstream sets rs1's observedGeneration twice: rs2's stays 0
  const rs3 = mk('unsynced-rs', 3, 0, undefined, 0);
  const rs4 = mk('dropped-rs', 1, 1, undefined, 1);
  const rows: [string, ReplicaSet[], number, number, number | null][] = [
    ['scaling down rs1', [rs1], 1, 2, 3],
    ['scaling down rs1 and rs2', [rs1, rs2], 3, 5, 4],
    ['scaling up rs3', [rs3], 3, 0, 0],
    ['scaling down rs1 and rs2 and scaling up rs3', [rs1, rs2, rs3], 6, 5, 4],
    ['invalid/unknown terminating status for rs4', [rs4], 1, 1, null],
    ['invalid/unknown terminating status for rs4 with rs1, rs2 and rs3', [rs1, rs2, rs3, rs4], 7, 6, null],
  ];
  it.each(rows)('%s', (_name, sets, count, actual, terminating) => {
    expect(replicaCount(sets)).toBe(count);
    expect(actualReplicaCount(sets)).toBe(actual);
    expect(terminatingReplicaCount(sets)).toBe(terminating);
  });
});

describe('TestResolveFenceposts', () => {
  const rows: [IntOrString | null, IntOrString | null, number, number, number, boolean][] = [
    ['0%', '0%', 0, 0, 1, false],
    ['39%', '39%', 10, 4, 3, false],
    ['oops', '39%', 10, 0, 0, true],
    ['55%', 'urg', 10, 0, 0, true],
    [null, '39%', 10, 0, 3, false],
    ['39%', null, 10, 4, 0, false],
    [null, null, 10, 0, 1, false],
  ];
  it.each(rows)('maxSurge %s, maxUnavailable %s of %i → %i, %i (error: %s)', (s, u, desired, surge, unavail, error) => {
    const r = resolveFenceposts(s, u, desired);
    if (error) expect(r).toHaveProperty('error');
    else expect(r).toMatchObject({ maxSurge: surge, maxUnavailable: unavail });
  });
});

describe('TestNewRSNewReplicas', () => {
  const rows: [string, 'RollingUpdate' | 'Recreate', number, number, number, number][] = [
    ['can not scale up - to newRSReplicas', 'RollingUpdate', 1, 5, 1, 5],
    ['scale up - to depReplicas', 'RollingUpdate', 6, 2, 10, 6],
    ['recreate - to depReplicas', 'Recreate', 3, 1, 1, 3],
  ];
  it.each(rows)('%s', (_name, strategy, depReplicas, newRSReplicas, surge, expected) => {
    const d = deploy({ replicas: depReplicas, strategy, maxSurge: surge, maxUnavailable: 1 });
    const rs5 = rs({ name: 'web-five', replicas: 5 });
    const newRS = rs({ name: 'web-new', replicas: newRSReplicas });
    expect(newRSNewReplicas(d, [rs5], newRS)).toMatchObject({ replicas: expected });
  });
});

describe('TestGetCondition / TestSetCondition / TestRemoveCondition', () => {
  const progressing = { type: 'Progressing', status: 'False', reason: 'ForSomeReason' };
  const progressing2 = { type: 'Progressing', status: 'True', reason: 'BecauseItIs' };
  const available = { type: 'Available', status: 'True', reason: 'AwesomeController' };
  it('TestGetCondition: condition exists / does not exist', () => {
    expect(getCondition({ conditions: [progressing, available] }, 'Available')).not.toBeNull();
    expect(getCondition({ conditions: [progressing, available] }, 'ReplicaFailure')).toBeNull();
  });
  const rows: [string, DeploymentStatus, typeof progressing, (typeof progressing)[]][] = [
    ['set for the first time', { conditions: [] }, available, [available]],
    ['simple set', { conditions: [progressing] }, available, [progressing, available]],
    ['overwrite', { conditions: [progressing] }, progressing2, [progressing2]],
  ];
  it.each(rows)('TestSetCondition: %s', (_name, status, c, expected) => {
    setCondition(status, c);
    expect(status.conditions).toEqual(expected);
  });
  it("TestRemoveCondition: remove from empty status / simple remove / doesn't remove anything", () => {
    const empty: DeploymentStatus = { conditions: [] };
    removeCondition(empty, 'Progressing');
    expect(empty.conditions).toEqual([]);
    const two: DeploymentStatus = { conditions: [progressing, available] };
    removeCondition(two, 'Progressing');
    expect(two.conditions).toEqual([available]);
    const same: DeploymentStatus = { conditions: [progressing, available] };
    removeCondition(same, 'ReplicaFailure');
    expect(same.conditions).toEqual([progressing, available]);
  });
});

describe('TestDeploymentComplete', () => {
  const rows: [string, number, number, number, number, number, number, boolean][] = [
    ['not complete: min but not all pods become available', 5, 5, 5, 4, 1, 0, false],
    ['not complete: min availability is not honored', 5, 5, 5, 3, 1, 0, false],
    ['complete', 5, 5, 5, 5, 0, 0, true],
    ['not complete: all pods are available but not updated', 5, 5, 4, 5, 0, 0, false],
    ['not complete: still running old pods', 1, 2, 1, 1, 0, 1, false],
    ['not complete: one replica deployment never comes up', 1, 1, 1, 0, 1, 1, false],
  ];
  it.each(rows)('%s', (_name, desired, current, updated, avail, maxUnavail, surge, expected) => {
    const d = rolling(desired, surge, maxUnavail, { replicas: current, updatedReplicas: updated, availableReplicas: avail });
    d.metadata.generation = 0;
    expect(deploymentComplete(d, d.status ?? {})).toBe(expected);
  });
});

describe('TestDeploymentProgressing', () => {
  type Q = [number, number, number, number];
  const st = ([replicas, updatedReplicas, readyReplicas, availableReplicas]: Q): DeploymentStatus => ({
    replicas,
    updatedReplicas,
    readyReplicas,
    availableReplicas,
  });
  const rows: [string, Q, Q, boolean][] = [
    ['progressing: updated pods', [10, 4, 4, 4], [10, 6, 4, 4], true],
    ['not progressing', [10, 4, 4, 4], [10, 4, 4, 4], false],
    ['progressing: old pods removed', [10, 4, 6, 6], [8, 4, 6, 6], true],
    ['not progressing: less new pods', [10, 7, 3, 3], [10, 6, 3, 3], false],
    ['progressing: less overall but more new pods', [10, 4, 7, 7], [8, 8, 5, 5], true],
    ['progressing: more ready pods', [10, 10, 9, 8], [10, 10, 10, 8], true],
    ['progressing: more available pods', [10, 10, 10, 9], [10, 10, 10, 10], true],
  ];
  it.each(rows)('%s', (_name, old, next, expected) => {
    const d = deploy();
    d.status = st(old);
    expect(deploymentProgressing(d, st(next))).toBe(expected);
  });
});

describe('TestDeploymentTimedOut', () => {
  const at = (min: number, sec: number) => Date.UTC(2016, 0, 1, 0, min, sec);
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  const rows: [string, string, number | null, number, number, boolean][] = [
    ['nil progressDeadlineSeconds specified - no timeout', '', null, at(1, 9), at(1, 20), false],
    ['infinite progressDeadlineSeconds specified - no timeout', '', 2147483647, at(1, 9), at(1, 20), false],
    ['progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s', '', 10, at(1, 9), at(1, 20), true],
    ['progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s', '', 10, at(1, 11), at(1, 20), false],
    ['previous status was a complete deployment', 'NewReplicaSetAvailable', null, 0, at(1, 20), false],
  ];
  it.each(rows)('%s', (_name, reason, pds, from, now, expected) => {
    const d = deploy({ progressDeadlineSeconds: pds });
    const status: DeploymentStatus = { conditions: [{ type: 'Progressing', status: 'True', reason, lastUpdateTime: iso(from) }] };
    expect(deploymentTimedOut(d, status, now)).toBe(expected);
  });
});

describe('TestMaxUnavailable / TestMinAvailable', () => {
  const rows: [string, number, IntOrString, number][] = [
    ['maxUnavailable less than replicas', 10, 5, 5],
    ['maxUnavailable equal replicas', 10, 10, 10],
    ['maxUnavailable greater than replicas', 5, 10, 5],
    ['maxUnavailable with replicas is 0', 0, 10, 0],
    ['maxUnavailable less than replicas with percents', 10, '50%', 5],
    ['maxUnavailable equal replicas with percents', 10, '100%', 10],
    ['maxUnavailable greater than replicas with percents', 5, '100%', 5],
  ];
  it.each(rows)('TestMaxUnavailable: %s', (_name, replicas, maxUnavail, expected) => {
    expect(maxUnavailable(rolling(replicas, 1, maxUnavail))).toBe(expected);
  });
  it('TestMaxUnavailable / TestMinAvailable: with Recreate deployment strategy → 0', () => {
    expect(maxUnavailable(deploy({ strategy: 'Recreate', replicas: 10 }))).toBe(0);
    expect(minAvailable(deploy({ strategy: 'Recreate', replicas: 10 }))).toBe(0);
  });
  const minRows: [string, number, IntOrString, number][] = [
    ['replicas greater than maxUnavailable', 10, 5, 5],
    ['replicas equal maxUnavailable', 10, 10, 0],
    ['replicas less than maxUnavailable', 5, 10, 0],
    ['replicas is 0', 0, 10, 0],
    ['replicas greater than maxUnavailable with percents', 10, '60%', 4],
    ['replicas equal maxUnavailable with percents', 10, '100%', 0],
    ['replicas less than maxUnavailable with percents', 5, '100%', 0],
  ];
  it.each(minRows)('TestMinAvailable: %s', (_name, replicas, maxUnavail, expected) => {
    expect(minAvailable(rolling(replicas, 1, maxUnavail))).toBe(expected);
  });
});

describe('TestGetNonNegativeInt32FromAnnotation (1.32 and later; strconv.Atoi before)', () => {
  const rows: [string, string | undefined, number | null, number | null][] = [
    // name, value, from 1.32, before 1.32 (strconv.Atoi, then int32())
    ['invalid empty', undefined, null, null],
    ['invalid', 'invalid', null, null],
    ['invalid negative ', '-1', null, -1],
    ['valid zero', '0', 0, 0],
    ['valid', '13', 13, 13],
    ['valid max', '2147483647', 2147483647, 2147483647],
    ['invalid max out of range', '2147483648', null, -2147483648],
    ['invalid max out of range 2', '4294967296', null, 0],
  ];
  it.each(rows)('%s', (_name, value, from132, before132) => {
    expect(nonNegativeInt32(value)).toBe(from132);
    expect(atoiInt32(value)).toBe(before132);
    const r = rs({ name: 'web-x', replicas: 1, annotations: value === undefined ? {} : { test: value, foo: '2' } });
    for (const minor of MINORS) expect(replicasAnnotation(r, 'test', modeOf(minor)), `1.${minor}`).toBe(minor >= 32 ? from132 : before132);
  });
});

describe('TestAnnotationUtils', () => {
  it('SetNewReplicaSetAnnotations: revisions 11 … 20 with a 5-character revision history keep the last two', () => {
    const d = deploy({ annotations: { [REVISION_ANNOTATION]: '1' } });
    const annotations: Record<string, string> = {};
    for (let i = 10; i < 20; i++) {
      setNewReplicaSetAnnotations(d, annotations, BigInt(i + 1), true, 5);
      if (i >= 12) expect(annotations[REVISION_HISTORY_ANNOTATION]).toBe(`${i - 1},${i}`);
      expect(annotations[REVISION_ANNOTATION]).toBe(String(i + 1));
    }
  });
  it('SetReplicasAnnotations sets desired 10 and max 11; IsSaturated with desired 1, 1 available of 1', () => {
    const annotations: Record<string, string> = {};
    expect(setReplicasAnnotations(annotations, 10, 11)).toBe(true);
    expect(annotations).toMatchObject({ 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '11' });
    expect(isSaturated(deploy({ replicas: 1 }), rs({ name: 'web-s', replicas: 1, available: 1, desired: 1 }))).toBe(true);
  });
});

describe('TestReplicasAnnotationsNeedUpdate (desired 10, max 20)', () => {
  const rows: [string, Record<string, string> | null, boolean][] = [
    ['test Annotations nil', null, true],
    ['test desiredReplicas update', { 'deployment.kubernetes.io/desired-replicas': '8', [MAX_REPLICAS_ANNOTATION]: '20' }, true],
    ['test maxReplicas update', { 'deployment.kubernetes.io/desired-replicas': '10', [MAX_REPLICAS_ANNOTATION]: '16' }, true],
    ["test needn't update", { 'deployment.kubernetes.io/desired-replicas': '10', [MAX_REPLICAS_ANNOTATION]: '20' }, false],
  ];
  it.each(rows)('%s', (_name, annotations, expected) => {
    const r = rs({ name: 'hello', replicas: 1 });
    r.metadata.annotations = annotations;
    expect(replicasAnnotationsNeedUpdate(r, 10, 20)).toBe(expected);
  });
});

describe('TestGetReplicaSetFraction', () => {
  const rows: [string, number, number, number, number, Record<string, string>, number, number][] = [
    // name, replicas, status.replicas, maxSurge, rs, annotations, fraction from 1.32, before 1.32
    ['empty deployment always scales to 0', 0, 0, 0, 10, {}, -10, -10],
    ['unsynced deployment does not scale when max-replicas annotation is missing (removed by a 3rd party)', 10, 0, 0, 5, {}, 0, 0],
    [
      'unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 (by a 3rd party)',
      10,
      0,
      0,
      5,
      { [MAX_REPLICAS_ANNOTATION]: '0' },
      0,
      0,
    ],
    ['scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is missing (removed by a 3rd party)', 120, 100, 0, 50, {}, 10, 10],
    // before 1.32 an annotation of 0 was divided by (no share here: Go leaves the conversion to the platform)
    [
      'scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is incorrectly set to 0 (by a 3rd party)',
      120,
      100,
      0,
      50,
      { [MAX_REPLICAS_ANNOTATION]: '0' },
      10,
      0,
    ],
    ['scale up by 1/5 should increase RS replicas by 1/5', 120, 0, 0, 50, { [MAX_REPLICAS_ANNOTATION]: '100' }, 10, 10],
    ['scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5', 120, 0, 10, 50, { [MAX_REPLICAS_ANNOTATION]: '110' }, 9, 9],
    ['scale down by 1/6 should decrease RS replicas by 1/6', 10, 0, 0, 6, { [MAX_REPLICAS_ANNOTATION]: '12' }, -1, -1],
    ['scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6', 100, 0, 10, 50, { [MAX_REPLICAS_ANNOTATION]: '130' }, -8, -8],
  ];
  it.each(rows)('%s', (_name, replicas, statusReplicas, surge, size, annotations, from132, before132) => {
    const d = rolling(replicas, surge, 1, { replicas: statusReplicas });
    const r = rs({ name: 'web-f', replicas: size, annotations });
    for (const minor of MINORS) expect(getReplicaSetFraction(r, d, modeOf(minor)), `1.${minor}`).toBe(minor >= 32 ? from132 : before132);
  });
});

describe('ReplicaSetsByRevision (the sort TestDeploymentController_cleanupDeploymentOrder relies on)', () => {
  it('a revision that is not a number compares by creation, not as 0', () => {
    const older = rs({ name: 'web-a', replicas: 0, ageSeconds: 300, annotations: { [REVISION_ANNOTATION]: 'x' } });
    const newer = rs({ name: 'web-b', replicas: 0, ageSeconds: 100, revision: 1 });
    expect([newer, older].sort(byRevision).map((r) => r.metadata.name)).toEqual(['web-a', 'web-b']);
    const newest = rs({ name: 'web-c', replicas: 0, ageSeconds: 10, annotations: { [REVISION_ANNOTATION]: 'y' } });
    const old2 = rs({ name: 'web-d', replicas: 0, ageSeconds: 500, revision: 2 });
    expect([newest, old2].sort(byRevision).map((r) => r.metadata.name)).toEqual(['web-d', 'web-c']);
  });
});
