// upstream's pkg/controller/deployment/recreate_test.go, as table tests: each row names the
// upstream test function and case, with its inputs and expected outputs (facts, not code). Read at
// kube v1.36.3 (openshift/microshift release-5.0 ab25d11482f8). recreate.go's rules are the same
// from 1.24 on; which pods count as a ReplicaSet's (getPodMapForDeployment) changed in 1.36.
import { describe, expect, it } from 'vitest';
import { oldPodsRunning, type PodMap } from '../../../src/core/deployment/recreate.js';
import { REVISION_ANNOTATION } from '../../../src/core/deployment/util.js';
import type { Pod, ReplicaSet } from '../../../src/core/types.js';
import { NEWEST_MINOR, OLDEST_MINOR } from '../../../src/core/versions.js';
import { controllerRefTo, pod } from '../rules/helpers.js';
import { acts, decide, deploy, rs } from './helpers.js';

const MINORS = Array.from({ length: NEWEST_MINOR - OLDEST_MINOR + 1 }, (_, i) => OLDEST_MINOR + i);

describe('TestScaleDownOldReplicaSets', () => {
  it('one old ReplicaSet of 3 goes to 0 (Recreate, 3 replicas), at every minor', () => {
    const d = deploy({ strategy: 'Recreate', replicas: 3, annotations: { [REVISION_ANNOTATION]: '1' } });
    const old = rs({ name: 'web-0', replicas: 3, revision: 1, image: 'nginx:1.26', desired: 3, max: 3 });
    for (const minor of MINORS) expect(acts(decide(d, [old], { minor })), `1.${minor}`).toEqual(['scale web-0 3→0']);
  });
});

describe('TestOldPodsRunning', () => {
  const withStatus = (name: string, spec: number, actual: number) => rs({ name, replicas: spec, actual });
  const withUID = (uid: string): ReplicaSet => ({
    ...rs({ name: `foo-${uid}`, replicas: 0, actual: 0 }),
    metadata: { ...rs({ name: `foo-${uid}`, replicas: 0, actual: 0 }).metadata, uid },
  });
  const phase = (p: string): Pod => pod({ name: `p-${p || 'none'}`, phase: p });
  const map = (m: Record<string, Pod[]>): PodMap => new Map(Object.entries(m));
  const rows: [string, ReplicaSet[], PodMap, boolean][] = [
    ['no old RSs', [], null, false],
    [
      'old RSs with running pods',
      [withUID('some-uid'), withUID('other-uid')],
      map({ 'some-uid': [phase(''), phase('')], 'other-uid': [phase(''), phase('')] }),
      true,
    ],
    ['old RSs without pods but with non-zero status replicas', [withStatus('rs-1', 0, 1)], null, true],
    ['old RSs without pods or non-zero status replicas', [withStatus('rs-1', 0, 0)], null, false],
    [
      'old RSs with zero status replicas but pods in terminal state are present',
      [withStatus('rs-1', 0, 0)],
      map({ 'uid-1': [phase('Failed'), phase('Succeeded')] }),
      false,
    ],
    ['old RSs with zero status replicas but pod in unknown phase present', [withStatus('rs-1', 0, 0)], map({ 'uid-1': [phase('Unknown')] }), true],
    ['old RSs with zero status replicas with pending pod present', [withStatus('rs-1', 0, 0)], map({ 'uid-1': [phase('Pending')] }), true],
    ['old RSs with zero status replicas with running pod present', [withStatus('rs-1', 0, 0)], map({ 'uid-1': [phase('Running')] }), true],
    [
      'old RSs with zero status replicas but pods in terminal state and pending are present',
      [withStatus('rs-1', 0, 0)],
      map({ 'uid-1': [phase('Failed'), phase('Succeeded')], 'uid-2': [], 'uid-3': [phase('Pending')] }),
      true,
    ],
  ];
  it.each(rows)('%s', (_name, oldRSs, podMap, running) => {
    expect(oldPodsRunning(null, oldRSs, podMap) !== null).toBe(running);
  });
});

describe('getPodMapForDeployment (TestGetPodMapForReplicaSets): which pods make Recreate wait', () => {
  // the old ReplicaSet is at 0 and reports no pods; one pod still runs, controlled by it
  const d = deploy({ strategy: 'Recreate', replicas: 2, annotations: { [REVISION_ANNOTATION]: '1' } });
  const old = rs({ name: 'web-old', replicas: 0, actual: 0, revision: 1, image: 'nginx:1.26', desired: 2, max: 2 });
  const waits = (p: Pod, minor: number) => decide(d, [old], { minor, pods: [p] }).actions.length === 0;
  it("a pod the Deployment's selector does not match: counted from 1.36 (the owner index), not before", () => {
    const p = pod({ name: 'relabelled', labels: { app: 'other' }, owner: [controllerRefTo('uid-web-old', 'web-old')] });
    for (const minor of MINORS) expect(waits(p, minor), `1.${minor}`).toBe(minor >= 36);
  });
  it('a pod whose controller reference carries the uid under another name: counted before 1.36, not from 1.36', () => {
    const p = pod({ name: 'misnamed', owner: [controllerRefTo('uid-web-old', 'someone-else')] });
    for (const minor of MINORS) expect(waits(p, minor), `1.${minor}`).toBe(minor < 36);
  });
  it('a matching pod controlled by the old ReplicaSet: counted at every minor', () => {
    const p = pod({ name: 'old-pod', owner: [controllerRefTo('uid-web-old', 'web-old')] });
    for (const minor of MINORS) expect(waits(p, minor), `1.${minor}`).toBe(true);
  });
});
