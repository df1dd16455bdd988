// upstream's pkg/controller/deployment/rolling_test.go, as table tests: each row names the
// upstream test function and case, with its inputs and expected outputs (facts, not code). Read at
// kube v1.36.3 (openshift/microshift release-5.0 ab25d11482f8); rolling.go's rules are the same
// from 1.24 on (1.30 and 1.36 changed only how they are written), so every row runs at each minor.
import { describe, expect, it } from 'vitest';
import {
  cleanupUnhealthyReplicas,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  scaleDownOldReplicaSetsForRollingUpdate,
} from '../../../src/core/deployment/rolling.js';
import { SyncRun } from '../../../src/core/deployment/sync-run.js';
import type { IntOrString, ReplicaSet } from '../../../src/core/types.js';
import { NEWEST_MINOR, OLDEST_MINOR } from '../../../src/core/versions.js';
import { REVISION_ANNOTATION } from '../../../src/core/deployment/util.js';
import { acts, bh, cond, decide, deploy, NOW, rs } from './helpers.js';

const MINORS = Array.from({ length: NEWEST_MINOR - OLDEST_MINOR + 1 }, (_, i) => OLDEST_MINOR + i);

const newDeployment = (replicas: number, maxSurge: IntOrString, maxUnavailable: IntOrString) => deploy({ replicas, maxSurge, maxUnavailable });
/** rolling_test.go's rs(): spec.replicas, and as many available as given (upstream's status is empty otherwise). */
const rsOf = (name: string, replicas: number, available = 0, ageSeconds = 3600): ReplicaSet => rs({ name, replicas, actual: replicas, available, ageSeconds });
const sizesWritten = (run: SyncRun) =>
  run.writes.flatMap((w) => (w.kind === 'updateReplicaSet' ? [`${w.replicaSet.metadata.name}=${w.replicaSet.spec.replicas}`] : []));

describe('TestDeploymentController_reconcileNewReplicaSet (maxUnavailable 0)', () => {
  // deployment replicas, maxSurge, old, new, scaled, expected new size
  const rows: [string, number, number, number, number, boolean, number | null][] = [
    ['Should not scale up.', 10, 0, 10, 0, false, null],
    ['surge 2 over 10 old: new to 2', 10, 2, 10, 0, true, 2],
    ['surge 2 over 5 old: new to 7', 10, 2, 5, 0, true, 7],
    ['surge 2 already used: no scale', 10, 2, 10, 2, false, null],
    ['Should scale down.', 10, 2, 2, 11, true, 10],
  ];
  it.each(rows)('%s', (_name, replicas, surge, oldReplicas, newReplicas, scaled, expected) => {
    for (const minor of MINORS) {
      const newRS = rsOf('foo-new', newReplicas);
      const oldRS = rsOf('foo-old', oldReplicas);
      const run = new SyncRun(newDeployment(replicas, surge, 0), [newRS, oldRS], NOW, bh(minor));
      expect(reconcileNewReplicaSet(run, [newRS, oldRS], newRS), `1.${minor}`).toBe(scaled);
      expect(sizesWritten(run), `1.${minor}`).toEqual(expected === null ? [] : [`foo-new=${expected}`]);
    }
  });
});

describe('TestDeploymentController_reconcileOldReplicaSets (maxSurge 0, 10 replicas)', () => {
  // maxUnavailable, old, new, ready of old, ready of new, scaled, old size after
  const rows: [string, number, number, number, number, number, boolean, number][] = [
    ['maxUnavailable 0 (taken as 1): one old pod goes', 0, 10, 0, 10, 0, true, 9],
    ['maxUnavailable 2: two old pods go', 2, 10, 0, 10, 0, true, 8],
    ['expect unhealthy replicas from old replica sets been cleaned up', 2, 10, 0, 8, 0, true, 8],
    ['expect 1 unhealthy replica from old replica sets been cleaned up, and 1 ready pod been scaled down', 2, 10, 0, 9, 0, true, 8],
    ['the unavailable pods from the newRS would not make us scale down old RSs in a further step', 2, 8, 2, 8, 0, false, 8],
  ];
  it.each(rows)('%s', (_name, maxUnavailable, oldReplicas, newReplicas, oldReady, newReady, scaled, after) => {
    for (const minor of MINORS) {
      const newRS = rsOf('foo-new', newReplicas, newReady, 60);
      const oldRS = rsOf('foo-old', oldReplicas, oldReady);
      const run = new SyncRun(newDeployment(10, 0, maxUnavailable), [oldRS, newRS], NOW, bh(minor));
      expect(reconcileOldReplicaSets(run, [oldRS, newRS], [oldRS], newRS), `1.${minor}`).toBe(scaled);
      const last = sizesWritten(run).at(-1);
      expect(last ?? `foo-old=${oldReplicas}`, `1.${minor}`).toBe(`foo-old=${after}`);
    }
  });

  it('an error of its steps is swallowed: a 409 on an old ReplicaSet adopted in this sync ends no sync, the status is still written', () => {
    // 3 replicas, maxSurge 1, maxUnavailable 0: the orphan old ReplicaSet is adopted (a patch), then
    // its scale down 3 → 2 is sent with the cached object (409); reconcileOldReplicaSets returns
    // false with no error, and rolloutRolling goes on to the status
    const d = deploy({
      replicas: 3,
      maxSurge: 1,
      maxUnavailable: 0,
      annotations: { [REVISION_ANNOTATION]: '2' },
      status: { conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 10_000)] },
    });
    const old = rs({ name: 'web-old', replicas: 3, revision: 1, image: 'nginx:1.26', owner: null, desired: 3, max: 4, ageSeconds: 7200 });
    const neu = rs({ name: 'web-new', replicas: 1, revision: 2, desired: 3, max: 4, ageSeconds: 60 });
    for (const minor of MINORS) {
      const dec = decide(d, [old, neu], { minor });
      expect(
        dec.writes.map((w) => w.kind),
        `1.${minor}`,
      ).toEqual(['adoptReplicaSet', 'updateReplicaSet', 'updateDeploymentStatus']);
      expect(dec.writes[1]).toMatchObject({ kind: 'updateReplicaSet', from: 3, to: 2, conflict: true });
      expect(dec.error, `1.${minor}`).toBeNull();
      expect(dec.statusChanged).toBe(true);
      // a write the API server answers 409 changes nothing: no action
      expect(acts(dec)).toEqual([]);
    }
  });
});

describe('TestDeploymentController_cleanupUnhealthyReplicas (10 old replicas)', () => {
  // ready, unhealthy, maxCleanupCount, cleaned
  const rows: [string, number, number, number, number][] = [
    ['8 ready, 2 unhealthy, at most 1 → 1', 8, 2, 1, 1],
    ['8 ready, 2 unhealthy, at most 3 → 2', 8, 2, 3, 2],
    ['8 ready, 2 unhealthy, at most 0 → 0', 8, 2, 0, 0],
    ['10 ready, none unhealthy, at most 3 → 0', 10, 0, 3, 0],
  ];
  it.each(rows)('%s', (_name, ready, _unhealthy, maxCleanup, cleaned) => {
    for (const minor of MINORS) {
      const oldRS = rsOf('foo-v2', 10, ready);
      const run = new SyncRun(newDeployment(10, 2, 2), [oldRS], NOW, bh(minor));
      expect(cleanupUnhealthyReplicas(run, [oldRS], maxCleanup, 'test')?.count, `1.${minor}`).toBe(cleaned);
    }
  });
});

describe('TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate (maxSurge 0, 10 replicas)', () => {
  // maxUnavailable, ready, old replicas, scaled, old size after
  const rows: [string, number, number, number, boolean, number | null][] = [
    ['maxUnavailable 0 (taken as 1), 10 ready → 9', 0, 10, 10, true, 9],
    ['maxUnavailable 2, 10 ready → 8', 2, 10, 10, true, 8],
    ['maxUnavailable 2, 8 ready → none', 2, 8, 10, false, null],
    ['maxUnavailable 2, 10 ready, no old replicas → none', 2, 10, 0, false, null],
    ['maxUnavailable 2, 1 ready → none', 2, 1, 10, false, null],
  ];
  it.each(rows)('%s', (_name, maxUnavailable, ready, oldReplicas, scaled, after) => {
    for (const minor of MINORS) {
      const oldRS = rsOf('foo-v2', oldReplicas, ready);
      const run = new SyncRun(newDeployment(10, 0, maxUnavailable), [oldRS], NOW, bh(minor));
      const n = scaleDownOldReplicaSetsForRollingUpdate(run, [oldRS], [oldRS]) ?? 0;
      expect(n > 0, `1.${minor}`).toBe(scaled);
      expect(sizesWritten(run), `1.${minor}`).toEqual(after === null ? [] : [`foo-v2=${after}`]);
    }
  });
});
