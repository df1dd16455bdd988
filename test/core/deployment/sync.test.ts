// sync_test.go and deployment_controller_test.go's facts: scale (proportional scaling, TestScale's
// cases), cleanupDeployment, paused Deployments, the new ReplicaSet created with its revision and
// the Progressing condition written at once, a rollback's revision bump, deletion, empty selector.
import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from '../../../src/core/types.js';
import { REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION } from '../../../src/core/deployment/util.js';
import { acts, ago, cond, decide, deploy, rs } from './helpers.js';

/** TestScale: a Deployment resized from `from` to `to` (maxSurge and maxUnavailable 0, so surge 0). */
function resize(from: number, to: number, newSize: number | null, olds: number[], o: { newAvailable?: number } = {}) {
  const d = deploy({
    replicas: to,
    maxSurge: 0,
    maxUnavailable: 0,
    annotations: { [REVISION_ANNOTATION]: String(olds.length + 1) },
    status: { replicas: from },
  });
  const rss: ReplicaSet[] = olds.map((n, i) =>
    rs({ name: `web-old${i}`, replicas: n, image: `nginx:1.${20 + i}`, revision: i + 1, desired: from, max: from, ageSeconds: 1000 - i * 100 }),
  );
  if (newSize !== null)
    rss.push(
      rs({ name: 'web-new', replicas: newSize, available: o.newAvailable ?? newSize, revision: olds.length + 1, desired: from, max: from, ageSeconds: 10 }),
    );
  const r = decide(d, rss);
  const size = (name: string) => {
    const last = r.actions.filter((a) => a.verb === 'scale' && a.replicaSet === name).at(-1);
    return last && last.verb === 'scale' ? last.to : rss.find((x) => x.metadata.name === name)?.spec.replicas;
  };
  return { r, newRS: size('web-new'), old: olds.map((_, i) => size(`web-old${i}`)) };
}

describe('scale (TestScale)', () => {
  it('one active ReplicaSet: 10 → 12 and 10 → 5', () => {
    expect(resize(10, 12, 10, []).newRS).toBe(12);
    expect(resize(10, 5, 10, []).newRS).toBe(5);
  });
  it('proportional 5 → 10: new 2 → 4, old 3 → 6', () => expect(resize(5, 10, 2, [3])).toMatchObject({ newRS: 4, old: [6] }));
  it('proportional 5 → 3: new 2 → 1, old 3 → 2', () => expect(resize(5, 3, 2, [3])).toMatchObject({ newRS: 1, old: [2] }));
  it('proportional 9 → 4: new 8 → 4, old 1 → 0', () => expect(resize(9, 4, 8, [1])).toMatchObject({ newRS: 4, old: [0] }));
  it('proportional 7 → 10: new 2 → 3, old 3, 2 → 4, 3', () => expect(resize(7, 10, 2, [3, 2])).toMatchObject({ newRS: 3, old: [4, 3] }));
  it('proportional 13 → 8: new 2 → 1, old 8, 3 → 5, 2', () => expect(resize(13, 8, 2, [8, 3])).toMatchObject({ newRS: 1, old: [5, 2] }));
  it('leftover 3 → 4 goes to the first of the equal sizes when growing: the newest (new 1 → 2)', () =>
    expect(resize(3, 4, 1, [1, 1])).toMatchObject({ newRS: 2, old: [1, 1] }));
  it('leftover 4 → 3 goes to the first when shrinking: the largest (old 2 → 1)', () =>
    expect(resize(4, 3, 1, [1, 2])).toMatchObject({ newRS: 1, old: [1, 1] }));
  it('to 0: every ReplicaSet to 0', () => expect(resize(6, 0, 3, [3])).toMatchObject({ newRS: 0, old: [0] }));
  it('no new ReplicaSet yet, old ones proportionally: 12 → 6 with 8 and 4', () => expect(resize(12, 6, null, [8, 4])).toMatchObject({ old: [4, 2] }));
  it('a saturated new ReplicaSet leaves old ones at 0', () => {
    const d = deploy({ replicas: 3, maxSurge: 1, maxUnavailable: 0, annotations: { [REVISION_ANNOTATION]: '2' } });
    const old = rs({ name: 'web-old', replicas: 2, image: 'nginx:1.26', revision: 1, desired: 2, max: 3, ageSeconds: 900 });
    const neu = rs({ name: 'web-new', replicas: 3, revision: 2, desired: 3, max: 4, ageSeconds: 10 });
    expect(acts(decide(d, [old, neu]))).toEqual(['scale web-old 2→0']);
  });
  it('the max-replicas annotation, not the size, is the base of the share (surge 3 → 2, 10 → 50)', () => {
    const d = deploy({ replicas: 50, maxSurge: 2, maxUnavailable: 0, annotations: { [REVISION_ANNOTATION]: '2' } });
    const old = rs({ name: 'web-old', replicas: 8, image: 'nginx:1.26', revision: 1, desired: 10, max: 13, ageSeconds: 900 });
    const neu = rs({ name: 'web-new', replicas: 5, available: 0, revision: 2, desired: 10, max: 13, ageSeconds: 10 });
    // allowed 52, 13 now: +39; old round(8 × 52 / 13) − 8 = 24, new round(5 × 52 / 13) − 5 = 15
    const r = decide(d, [old, neu]);
    expect(r.path).toBe('scaling');
    expect(acts(r)).toEqual(['scale web-old 8→32', 'scale web-new 5→20']);
    expect(r.actions[0].message).toContain('its share is 8 × 52 / 13');
  });
});

describe('cleanupDeployment (revisionHistoryLimit)', () => {
  function paused(limit: number | null, olds: ReplicaSet[]) {
    const d = deploy({ replicas: 1, paused: true, revisionHistoryLimit: limit, annotations: { [REVISION_ANNOTATION]: '9' } });
    return decide(d, [...olds, rs({ name: 'web-new', replicas: 1, revision: 9, desired: 1, max: 2, ageSeconds: 1 })]);
  }
  const zero = (name: string, revision: number, o: Partial<Parameters<typeof rs>[0]> = {}) =>
    rs({ name, replicas: 0, actual: 0, image: `nginx:1.${revision}`, revision, ageSeconds: 1000 - revision, ...o });
  it('3 empty old, limit 1 → the 2 lowest revisions deleted', () => {
    expect(acts(paused(1, [zero('web-c', 3), zero('web-a', 1), zero('web-b', 2)]))).toEqual(['delete web-a', 'delete web-b']);
  });
  it('only those with spec and status replicas 0 (limit 0: 1 of 4)', () => {
    const r = paused(0, [
      zero('web-a', 1),
      zero('web-b', 2, { actual: 1 }),
      zero('web-c', 3, { replicas: 1, actual: 0 }),
      zero('web-d', 4, { replicas: 1, actual: 1 }),
    ]);
    expect(acts(r).filter((a) => a.startsWith('delete'))).toEqual(['delete web-a']);
  });
  it('none with pods; none being deleted; none with a generation not yet observed', () => {
    expect(acts(paused(0, [zero('web-a', 1, { replicas: 1, actual: 1 })])).filter((a) => a.startsWith('delete'))).toEqual([]);
    expect(acts(paused(0, [zero('web-a', 1, { deletionTimestamp: ago(1000) }), zero('web-b', 2)]))).toEqual(['delete web-b']);
    expect(acts(paused(0, [zero('web-a', 1, { generation: 3, observedGeneration: 2 })]))).toEqual([]);
  });
  it('no limit (null): nothing deleted', () => expect(acts(paused(null, [zero('web-a', 1)]))).toEqual([]));
  it('the message names the limit', () => {
    expect(paused(0, [zero('web-a', 1)]).actions[0].message).toContain('revisionHistoryLimit 0');
  });
});

describe('paused', () => {
  it('a paused Deployment with a new template creates nothing and gets Progressing Unknown DeploymentPaused', () => {
    const d = deploy({
      replicas: 2,
      paused: true,
      image: 'nginx:1.28',
      annotations: { [REVISION_ANNOTATION]: '1' },
      status: { conditions: [cond('Progressing', 'True', 'NewReplicaSetAvailable', 60000)] },
    });
    const r = decide(d, [rs({ name: 'web-a', replicas: 2, revision: 1, desired: 2, max: 3 })]);
    expect(r.path).toBe('paused');
    expect(r.actions).toEqual([]);
    expect(r.statusChanged).toBe(true);
    expect(r.status.conditions.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });
  });
  it('resumed: DeploymentResumed', () => {
    const d = deploy({
      replicas: 2,
      annotations: { [REVISION_ANNOTATION]: '1' },
      status: { conditions: [cond('Progressing', 'Unknown', 'DeploymentPaused', 60000)] },
    });
    const r = decide(d, [rs({ name: 'web-a', replicas: 2, revision: 1, desired: 2, max: 3 })]);
    expect(r.status.conditions.find((c) => c.type === 'Progressing')).toMatchObject({ reason: 'DeploymentResumed' });
  });
  it('a timed-out Progressing condition is not overwritten by the paused one', () => {
    const d = deploy({
      replicas: 2,
      paused: true,
      annotations: { [REVISION_ANNOTATION]: '1' },
      status: { conditions: [cond('Progressing', 'False', 'ProgressDeadlineExceeded', 60000)] },
    });
    const r = decide(d, [rs({ name: 'web-a', replicas: 2, revision: 1, desired: 2, max: 3 })]);
    expect(r.status.conditions.find((c) => c.type === 'Progressing')?.reason).toBe('ProgressDeadlineExceeded');
  });
});

describe('a new rollout: the new ReplicaSet created (getNewReplicaSet)', () => {
  const steady = (o: Partial<Parameters<typeof deploy>[0]> = {}): Deployment =>
    deploy({
      replicas: 4,
      image: 'nginx:1.28',
      annotations: { [REVISION_ANNOTATION]: '1' },
      generation: 2,
      status: {
        observedGeneration: 1,
        replicas: 4,
        updatedReplicas: 4,
        readyReplicas: 4,
        availableReplicas: 4,
        conditions: [cond('Available', 'True', 'MinimumReplicasAvailable', 600000), cond('Progressing', 'True', 'NewReplicaSetAvailable', 600000)],
      },
      ...o,
    });
  const old = () => rs({ name: 'web-old', replicas: 4, revision: 1, desired: 4, max: 5, ageSeconds: 900 });
  it('25%/25% of 4: create with 1, old 4 → 3 in the same sync', () => {
    const r = decide(steady(), [old()]);
    expect(r.path).toBe('rolling');
    expect(r.actions.map((a) => a.verb)).toEqual(['create', 'scale']);
    expect(r.actions[0]).toMatchObject({ verb: 'create', replicaSet: null, replicas: 1 });
    expect(r.actions[0].message).toContain('pod-template-hash');
    expect(r.actions[1]).toMatchObject({ verb: 'scale', replicaSet: 'web-old', from: 4, to: 3 });
    expect(r.newReplicaSet).toBeNull();
  });
  it('the first status write is the Progressing condition, counts as they were; the later one conflicts', () => {
    const r = decide(steady(), [old()]);
    expect(r.statusChanged).toBe(true);
    expect(r.status).toMatchObject({ replicas: 4, updatedReplicas: 4, observedGeneration: 1 });
    expect(r.status.conditions.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'True', reason: 'NewReplicaSetCreated' });
    const statusWrites = r.writes.filter((w) => w.kind === 'updateDeploymentStatus');
    expect(statusWrites.map((w) => w.kind === 'updateDeploymentStatus' && w.conflict)).toEqual([false, true]);
    expect(r.error).toContain('the object has been modified');
    expect(r.requeueAfterSeconds).toBe(0);
  });
  it('the created ReplicaSet carries revision max + 1 and the replicas annotations', () => {
    const r = decide(steady(), [old()]);
    const created = r.writes.find((w) => w.kind === 'createReplicaSet');
    expect(created?.kind === 'createReplicaSet' && created.replicaSet.metadata.annotations).toEqual({
      [REVISION_ANNOTATION]: '2',
      'deployment.kubernetes.io/desired-replicas': '4',
      'deployment.kubernetes.io/max-replicas': '5',
    });
    expect(created?.kind === 'createReplicaSet' && created.hashKnown).toBe(false);
  });
  it('maxUnavailable 0: create with 1 (surge), nothing scaled down yet', () => {
    const r = decide(steady({ maxSurge: 1, maxUnavailable: 0 }), [old()]);
    expect(acts(r)).toEqual(['create ?=1']);
  });
  it('Recreate does not create the new ReplicaSet before the old pods are gone', () => {
    const r = decide(steady({ strategy: 'Recreate' }), [old()]);
    expect(acts(r)).toEqual(['scale web-old 4→0']);
  });
});

describe('rollback: the template of an old ReplicaSet again', () => {
  it("the old ReplicaSet becomes the new one: its revision goes 1 → 3 (history '1'), and the sync's second pass conflicts", () => {
    const d = deploy({ replicas: 2, image: 'nginx:1.26', annotations: { [REVISION_ANNOTATION]: '2' } });
    const a = rs({ name: 'web-a', replicas: 0, actual: 0, image: 'nginx:1.26', revision: 1, desired: 2, max: 3, ageSeconds: 900 });
    const b = rs({ name: 'web-b', replicas: 2, image: 'nginx:1.27', revision: 2, desired: 2, max: 3, ageSeconds: 300 });
    const r = decide(d, [a, b]);
    expect(r.newReplicaSet).toBe('web-a');
    expect(r.actions).toEqual([]);
    expect(r.inSync).toBe(false);
    const updates = r.writes.filter((w) => w.kind === 'updateReplicaSet');
    expect(updates).toHaveLength(2);
    const first = updates[0];
    expect(first.kind === 'updateReplicaSet' && first.replicaSet.metadata.annotations).toMatchObject({
      [REVISION_ANNOTATION]: '3',
      [REVISION_HISTORY_ANNOTATION]: '1',
    });
    expect(updates.map((w) => w.kind === 'updateReplicaSet' && w.conflict)).toEqual([false, true]);
    expect(r.notes[0]).toContain('rollback');
  });
});

describe('syncDeployment branches', () => {
  it('a Deployment being deleted: status only (DeploymentDeleting)', () => {
    const d = deploy({
      replicas: 3,
      deletionTimestamp: ago(1000),
      annotations: { [REVISION_ANNOTATION]: '1' },
      status: { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 1000)] },
    });
    const r = decide(d, [rs({ name: 'web-a', replicas: 1, revision: 1, desired: 3, max: 4 })]);
    expect(r.skip?.reason).toBe('DeploymentDeleting');
    expect(r.actions).toEqual([]);
    expect(r.statusChanged).toBe(true);
    expect(r.status.replicas).toBe(1);
  });
  it('no Progressing condition yet: getNewReplicaSet first writes FoundNewReplicaSet, counts as they were', () => {
    const d = deploy({ replicas: 3, annotations: { [REVISION_ANNOTATION]: '1' } });
    const r = decide(d, [rs({ name: 'web-a', replicas: 3, revision: 1, desired: 3, max: 4 })]);
    expect(r.status.replicas).toBe(0);
    expect(r.status.conditions).toEqual([
      expect.objectContaining({ type: 'Progressing', reason: 'FoundNewReplicaSet', message: 'Found new replica set "web-a"' }),
    ]);
  });
  it('an empty selector: skipped, only observedGeneration caught up', () => {
    const d = deploy({ generation: 3, status: { observedGeneration: 2 } });
    d.spec.selector = {};
    const r = decide(d, [rs({ name: 'web-a', replicas: 1 })]);
    expect(r.skip?.reason).toBe('EmptySelector');
    expect(r.status.observedGeneration).toBe(3);
    expect(r.actions).toEqual([]);
  });
  it('no selector at all (the API server refuses it): skipped, nothing written', () => {
    const d = deploy();
    d.spec.selector = undefined;
    const r = decide(d, [rs({ name: 'web-a', replicas: 1 })]);
    expect(r.skip?.reason).toBe('InvalidSelector');
    expect(r.writes).toEqual([]);
  });
  it('an invalid selector: skipped with the error, requeued', () => {
    const d = deploy();
    d.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] };
    const r = decide(d, []);
    expect(r.skip?.reason).toBe('InvalidSelector');
    expect(r.writes).toEqual([]);
  });
  it('an orphan ReplicaSet that matches is adopted; one owned by another Deployment is left alone', () => {
    const d = deploy({
      replicas: 1,
      annotations: { [REVISION_ANNOTATION]: '1' },
      status: { conditions: [cond('Progressing', 'True', 'NewReplicaSetAvailable', 1000)] },
    });
    const r = decide(d, [
      rs({ name: 'web-a', replicas: 1, revision: 1, desired: 1, max: 2, owner: null }),
      rs({ name: 'web-z', replicas: 1, revision: 1, owner: 'other' }),
    ]);
    expect(r.writes[0]).toEqual({ kind: 'adoptReplicaSet', name: 'web-a' });
    expect(r.writes.some((w) => 'name' in w && w.name === 'web-z')).toBe(false);
  });
  it('a Deployment in sync writes nothing', () => {
    const d = deploy({
      replicas: 2,
      annotations: { [REVISION_ANNOTATION]: '1' },
      status: {
        observedGeneration: 1,
        replicas: 2,
        updatedReplicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        unavailableReplicas: 0,
        terminatingReplicas: 0,
        conditions: [cond('Available', 'True', 'MinimumReplicasAvailable', 9000), cond('Progressing', 'True', 'NewReplicaSetAvailable', 9000)],
      },
    });
    const r = decide(d, [rs({ name: 'web-a', replicas: 2, revision: 1, desired: 2, max: 3, terminating: 0 })]);
    expect(r.writes).toEqual([]);
    expect(r.inSync).toBe(true);
    expect(r.statusChanged).toBe(false);
    expect(r.status.terminatingReplicas).toBe(0);
  });
});

describe('terminatingReplicas by minor (DeploymentReplicaSetTerminatingReplicas)', () => {
  const d = () =>
    deploy({ replicas: 2, annotations: { [REVISION_ANNOTATION]: '1' }, status: { conditions: [cond('Progressing', 'True', 'NewReplicaSetAvailable', 9000)] } });
  const a = () => rs({ name: 'web-a', replicas: 2, revision: 1, desired: 2, max: 3, terminating: 1 });
  it('1.35 writes the sum of the ReplicaSets', () => expect(decide(d(), [a()], { minor: 35 }).status.terminatingReplicas).toBe(1));
  it('1.34 does not (gate off by default)', () => expect(decide(d(), [a()], { minor: 34 }).status).not.toHaveProperty('terminatingReplicas'));
  it('1.35 with a ReplicaSet not reporting it: none', () => {
    const b = rs({ name: 'web-b', replicas: 0, actual: 0, image: 'nginx:1.2', revision: 0 });
    expect(decide(d(), [a(), b], { minor: 35 }).status).not.toHaveProperty('terminatingReplicas');
  });
});
