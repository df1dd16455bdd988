// progress_test.go's facts: syncRolloutStatus's Progressing condition (complete, progressing,
// timed out, no deadline), the ReplicaFailure condition from the ReplicaSets, and
// requeueStuckDeployment's progress check.
import { describe, expect, it } from 'vitest';
import { REVISION_ANNOTATION } from '../../../src/core/deployment/util.js';
import { ago, cond, decide, deploy, NOW, rs } from './helpers.js';

const SEC = 1000;
/** A rollout of 2 replicas with the new ReplicaSet at 2, `available` of them available, nothing to scale. */
function midway(o: {
  available: number;
  progressing: ReturnType<typeof cond> | null;
  deadline?: number | null;
  status?: Record<string, number>;
  failure?: boolean;
}) {
  const d = deploy({
    replicas: 2,
    maxSurge: 0,
    maxUnavailable: 1,
    progressDeadlineSeconds: o.deadline === undefined ? 60 : o.deadline,
    annotations: { [REVISION_ANNOTATION]: '2' },
    status: {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: o.available,
      availableReplicas: o.available,
      unavailableReplicas: 2 - o.available,
      ...(o.status ?? {}),
      conditions: [
        o.available >= 1
          ? cond('Available', 'True', 'MinimumReplicasAvailable', 100 * SEC)
          : cond('Available', 'False', 'MinimumReplicasUnavailable', 100 * SEC),
        ...(o.progressing ? [o.progressing] : []),
      ],
    },
  });
  const neu = rs({ name: 'web-new', replicas: 2, available: o.available, revision: 2, desired: 2, max: 2 });
  if (o.failure)
    neu.status!.conditions = [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota', lastTransitionTime: ago(5 * SEC) }];
  return decide(d, [neu]);
}

describe('syncRolloutStatus', () => {
  it('complete: Progressing True NewReplicaSetAvailable, "ReplicaSet \\"web-new\\" has successfully progressed."', () => {
    const r = midway({ available: 2, progressing: cond('Progressing', 'True', 'ReplicaSetUpdated', 10 * SEC), status: { availableReplicas: 1 } });
    const p = r.status.conditions.find((c) => c.type === 'Progressing');
    expect(p).toMatchObject({ status: 'True', reason: 'NewReplicaSetAvailable', message: 'ReplicaSet "web-new" has successfully progressed.' });
    // same status True: lastTransitionTime kept
    expect(p?.lastTransitionTime).toBe(ago(10 * SEC));
    expect(r.requeueAfterSeconds).toBeNull();
  });
  it('progressing (more available than the status says): ReplicaSetUpdated with lastUpdateTime now', () => {
    const r = midway({
      available: 1,
      progressing: cond('Progressing', 'True', 'ReplicaSetUpdated', 10 * SEC, 30 * SEC),
      status: { availableReplicas: 0, readyReplicas: 0 },
    });
    const p = r.status.conditions.find((c) => c.type === 'Progressing');
    expect(p).toMatchObject({
      reason: 'ReplicaSetUpdated',
      message: 'ReplicaSet "web-new" is progressing.',
      lastUpdateTime: ago(0),
      lastTransitionTime: ago(30 * SEC),
    });
  });
  it('no progress for longer than the deadline: Progressing False ProgressDeadlineExceeded', () => {
    const r = midway({ available: 1, progressing: cond('Progressing', 'True', 'ReplicaSetUpdated', 61 * SEC) });
    expect(r.statusChanged).toBe(true);
    expect(r.status.conditions.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "web-new" has timed out progressing.',
    });
  });
  it('no deadline: the Progressing condition is removed', () => {
    const r = midway({ available: 1, deadline: null, progressing: cond('Progressing', 'True', 'ReplicaSetUpdated', 61 * SEC) });
    expect(r.status.conditions.map((c) => c.type)).toEqual(['Available']);
    expect(r.statusChanged).toBe(true);
  });
  it("the new ReplicaSet's ReplicaFailure becomes the Deployment's", () => {
    const r = midway({ available: 1, failure: true, progressing: cond('Progressing', 'True', 'ReplicaSetUpdated', 10 * SEC) });
    expect(r.status.conditions.find((c) => c.type === 'ReplicaFailure')).toMatchObject({
      status: 'True',
      reason: 'FailedCreate',
      message: 'quota',
      lastUpdateTime: ago(5 * SEC),
    });
  });
  it('Available False MinimumReplicasUnavailable below replicas − maxUnavailable', () => {
    const r = midway({ available: 0, progressing: cond('Progressing', 'True', 'ReplicaSetUpdated', 10 * SEC) });
    expect(r.status.conditions.find((c) => c.type === 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
  });
});

describe('requeueStuckDeployment (status unchanged)', () => {
  // the status as the sync calculates it, so nothing is written and the progress check is scheduled
  const stuck = (updatedAgo: number, deadline: number | null = 60) =>
    midway({
      available: 1,
      deadline,
      progressing: cond('Progressing', 'True', 'ReplicaSetUpdated', updatedAgo),
    });
  it('30 s into a 60 s deadline: check in 30 s (+1 s against skew)', () => {
    const r = stuck(30 * SEC);
    expect(r.statusChanged).toBe(false);
    expect(r.requeueAfterSeconds).toBe(31);
  });
  it('59 s in: 1 s left → 2', () => expect(stuck(59 * SEC).requeueAfterSeconds).toBe(2));
  it('less than a second left: at once (rate-limited, 0)', () => expect(decideAt(59.5 * SEC).requeueAfterSeconds).toBe(0));
  it('complete or timed out: none', () => {
    expect(midway({ available: 2, progressing: cond('Progressing', 'True', 'NewReplicaSetAvailable', 10 * SEC) }).requeueAfterSeconds).toBeNull();
    expect(midway({ available: 1, progressing: cond('Progressing', 'False', 'ProgressDeadlineExceeded', 10 * SEC) }).requeueAfterSeconds).toBeNull();
  });
  it('no Progressing condition or no deadline: none', () => {
    expect(stuck(30 * SEC, null).requeueAfterSeconds).toBeNull();
  });
});

/** lastUpdateTime `sinceUpdateMs` before the evaluation time (whole seconds before NOW, the rest added to now). */
function decideAt(sinceUpdateMs: number) {
  const whole = Math.floor(sinceUpdateMs / SEC) * SEC;
  const d = deploy({
    replicas: 2,
    maxSurge: 0,
    maxUnavailable: 1,
    progressDeadlineSeconds: 60,
    annotations: { [REVISION_ANNOTATION]: '2' },
    status: {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      unavailableReplicas: 1,
      conditions: [cond('Available', 'True', 'MinimumReplicasAvailable', 100 * SEC), cond('Progressing', 'True', 'ReplicaSetUpdated', whole)],
    },
  });
  return decide(d, [rs({ name: 'web-new', replicas: 2, available: 1, revision: 2, desired: 2, max: 2 })], { nowMs: NOW + (sinceUpdateMs - whole) });
}
