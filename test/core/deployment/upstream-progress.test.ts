// upstream's pkg/controller/deployment/progress_test.go, as table tests: each row names the
// upstream test function and case, with its inputs and expected outputs (facts, not code). Read at
// kube v1.36.3 (openshift/microshift release-5.0 ab25d11482f8); progress.go's rules are the same
// from 1.24 on, so every row runs at each supported minor.
import { describe, expect, it } from 'vitest';
import { requeueStuckDeployment, syncRolloutStatus } from '../../../src/core/deployment/progress.js';
import { SyncRun } from '../../../src/core/deployment/sync-run.js';
import type { Deployment, DeploymentCondition, DeploymentStatus, ReplicaSet } from '../../../src/core/types.js';
import { NEWEST_MINOR, OLDEST_MINOR } from '../../../src/core/versions.js';
import { bh, deploy, rs } from './helpers.js';

const MINORS = Array.from({ length: NEWEST_MINOR - OLDEST_MINOR + 1 }, (_, i) => OLDEST_MINOR + i);
const TEST_TIME = '2017-02-15T18:49:00Z';
const at = (iso: string) => Date.parse(iso);

/** progress_test.go's currentDeployment: Recreate, observed, with the status counts given. */
function currentDeployment(
  pds: number | null,
  replicas: number,
  statusReplicas: number,
  updated: number,
  available: number,
  conditions: DeploymentCondition[] | null,
): Deployment {
  const d = deploy({ strategy: 'Recreate', replicas, progressDeadlineSeconds: pds, generation: 0 });
  d.metadata.name = 'progress-test';
  d.status = { replicas: statusReplicas, updatedReplicas: updated, availableReplicas: available, conditions };
  return d;
}
const status = (replicas: number, updatedReplicas: number, availableReplicas: number): DeploymentStatus => ({ replicas, updatedReplicas, availableReplicas });
const failed: DeploymentCondition[] = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }];
const stuck: DeploymentCondition[] = [{ type: 'Progressing', status: 'True', lastUpdateTime: TEST_TIME }];

describe('TestRequeueStuckDeployment (progressDeadlineSeconds 60; the enqueue is after + 1 s)', () => {
  const rows: [string, Deployment, DeploymentStatus, string, number | null][] = [
    ['nil progressDeadlineSeconds specified', currentDeployment(null, 4, 3, 3, 2, null), status(3, 3, 2), TEST_TIME, null],
    ['infinite progressDeadlineSeconds specified', currentDeployment(2147483647, 4, 3, 3, 2, null), status(3, 3, 2), TEST_TIME, null],
    ['no progressing condition found', currentDeployment(60, 4, 3, 3, 2, null), status(3, 3, 2), TEST_TIME, null],
    ['complete deployment does not need to be requeued', currentDeployment(60, 3, 3, 3, 3, null), status(3, 3, 3), TEST_TIME, null],
    ['already failed deployment does not need to be requeued', currentDeployment(60, 3, 3, 3, 0, failed), status(3, 3, 0), TEST_TIME, null],
    ['stuck deployment - 30s', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:49:30Z', 31],
    ['stuck deployment - 1s', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:49:59Z', 2],
    ['failed deployment - less than a second => now', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:49:59.001Z', 0],
    ['failed deployment - now', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:50:00Z', 0],
    ['failed deployment - 1s after deadline', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:50:01Z', 0],
    ['failed deployment - 60s after deadline', currentDeployment(60, 3, 3, 3, 1, stuck), status(3, 3, 1), '2017-02-15T18:51:00Z', 0],
  ];
  it.each(rows)('%s', (_name, d, next, now, expected) => {
    for (const minor of MINORS) expect(requeueStuckDeployment(new SyncRun(d, [], at(now), bh(minor)), next), `1.${minor}`).toBe(expected);
  });
});

describe('TestSyncRolloutStatus', () => {
  const failedTimedOut: DeploymentCondition = { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' };
  const newRSAvailable: DeploymentCondition = {
    type: 'Progressing',
    status: 'True',
    reason: 'NewReplicaSetAvailable',
    lastUpdateTime: TEST_TIME,
    lastTransitionTime: TEST_TIME,
  };
  const replicaSetUpdated: DeploymentCondition = {
    type: 'Progressing',
    status: 'True',
    reason: 'ReplicaSetUpdated',
    lastUpdateTime: TEST_TIME,
    lastTransitionTime: TEST_TIME,
  };
  /** newRSWithAvailable: [name, spec, status, available]; upstream's status has no ready replicas */
  const mk = ([name, spec, actual, available]: [string, number, number, number]) => rs({ name, replicas: spec, actual, available, ready: 0, ageSeconds: 0 });
  type Row = [
    string,
    Deployment,
    [string, number, number, number][],
    [string, number, number, number] | null,
    // expected Progressing condition: null for none; lastUpdate / lastTransition kept at TEST_TIME
    { status: string; reason: string; keepUpdate?: boolean; keepTransition?: boolean } | null,
  ];
  const rows: Row[] = [
    [
      'General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline',
      currentDeployment(null, 3, 2, 2, 2, [replicaSetUpdated]),
      [['bar', 0, 1, 1]],
      ['foo', 3, 2, 2],
      null,
    ],
    [
      'General: do not estimate progress of deployment with only one active ReplicaSet',
      currentDeployment(60, 3, 3, 3, 3, [newRSAvailable]),
      [['bar', 3, 3, 3]],
      null,
      { status: 'True', reason: 'NewReplicaSetAvailable', keepUpdate: true, keepTransition: true },
    ],
    [
      'DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True',
      currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
      [['bar', 0, 1, 1]],
      ['foo', 3, 2, 2],
      { status: 'True', reason: 'ReplicaSetUpdated', keepTransition: true },
    ],
    [
      'DeploymentProgressing: update everything if deployment has Progressing=False',
      currentDeployment(60, 3, 2, 2, 2, [failedTimedOut]),
      [['bar', 0, 1, 1]],
      ['foo', 3, 2, 2],
      { status: 'True', reason: 'ReplicaSetUpdated' },
    ],
    [
      'DeploymentProgressing: create Progressing condition if it does not exist',
      currentDeployment(60, 3, 2, 2, 2, []),
      [['bar', 0, 1, 1]],
      ['foo', 3, 2, 2],
      { status: 'True', reason: 'ReplicaSetUpdated' },
    ],
    [
      'DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True',
      currentDeployment(60, 3, 3, 3, 3, [replicaSetUpdated]),
      [],
      ['foo', 3, 3, 3],
      { status: 'True', reason: 'NewReplicaSetAvailable', keepTransition: true },
    ],
    [
      'DeploymentComplete: update everything if deployment has Progressing=False',
      currentDeployment(60, 3, 3, 3, 3, [failedTimedOut]),
      [],
      ['foo', 3, 3, 3],
      { status: 'True', reason: 'NewReplicaSetAvailable' },
    ],
    [
      'DeploymentComplete: create Progressing condition if it does not exist',
      currentDeployment(60, 3, 3, 3, 3, []),
      [],
      ['foo', 3, 3, 3],
      { status: 'True', reason: 'NewReplicaSetAvailable' },
    ],
    [
      'DeploymentComplete: defend against NPE when newRS=nil',
      currentDeployment(60, 0, 3, 3, 3, [replicaSetUpdated]),
      [['foo', 0, 0, 0]],
      null,
      { status: 'True', reason: 'NewReplicaSetAvailable' },
    ],
    [
      'DeploymentTimedOut: update status if rollout exceeds Progress Deadline',
      currentDeployment(60, 3, 2, 2, 2, [replicaSetUpdated]),
      [],
      ['foo', 3, 2, 2],
      { status: 'False', reason: 'ProgressDeadlineExceeded' },
    ],
    [
      'DeploymentTimedOut: do not update status if deployment has existing timedOut condition',
      currentDeployment(60, 3, 2, 2, 2, [failedTimedOut]),
      [],
      ['foo', 3, 2, 2],
      { status: 'False', reason: 'ProgressDeadlineExceeded' },
    ],
  ];
  it.each(rows)('%s', (_name, d0, all, neu, expected) => {
    for (const minor of MINORS) {
      const d = structuredClone(d0);
      const newRS: ReplicaSet | null = neu ? mk(neu) : null;
      const allRSs = [...all.map(mk), ...(newRS ? [newRS] : [])];
      // now: an hour past the test time, so a rollout that did not progress has timed out
      const run = new SyncRun(d, allRSs, at(TEST_TIME) + 3600_000, bh(minor));
      syncRolloutStatus(run, allRSs, newRS);
      const c = (d.status?.conditions ?? []).find((x) => x.type === 'Progressing') ?? null;
      if (expected === null) {
        expect(c, `1.${minor}`).toBeNull();
        continue;
      }
      expect(c, `1.${minor}`).toMatchObject({ status: expected.status, reason: expected.reason });
      if (expected.keepUpdate) expect(c?.lastUpdateTime).toBe(TEST_TIME);
      if (expected.keepTransition) expect(c?.lastTransitionTime).toBe(TEST_TIME);
    }
  });
});
