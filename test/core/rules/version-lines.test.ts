// Behaviour that changed between Kubernetes minors, checked through the planner on both sides of
// each version line. Each case names the upstream function and release branches it follows
// (kubernetes/kubernetes); the controller-side line (updatePod's extra second) is tested in
// test/controller/controller.test.ts.
import { describe, expect, it } from 'vitest';
import { planSnapshot } from '../../../src/core/plan.js';
import type { PlanController } from '../../../src/core/plan-types.js';
import type { Snapshot } from '../../../src/core/types.js';
import type { Behaviour } from '../../../src/core/versions.js';
import { bh, controllerRefTo, DAY, MINUTE, pod, rc, rs, snap } from './helpers.js';

function planOf(s: Snapshot, b: Behaviour, name = 'web', kind = 'ReplicaSet'): PlanController {
  const c = planSnapshot(s, { now: Date.parse('2026-01-01T00:00:00Z'), behaviour: b, source: 'file' }).controllers.find(
    (x) => x.name === name && x.kind === kind,
  );
  if (!c) throw new Error(`${kind} ${name} not planned`);
  return c;
}
const decisions = (c: PlanController) => Object.fromEntries(c.pods.map((p) => [p.name, `${p.decision}/${p.reason}`]));
const counters = (n: number) => ({ replicas: n, fullyLabeledReplicas: n, readyReplicas: n, availableReplicas: n, observedGeneration: 1 });

describe('sidecar restarts break restart ties from 1.32', () => {
  // pkg/controller/controller_utils.go, ActivePodsWithRanks.Less step 7: release-1.32 compares the
  // regular containers' max restarts, then the restartable init containers' (compareMaxContainerRestarts,
  // PR #124952, listed in the v1.32.0 changelog); release-1.31 looks at regular containers only
  // and goes on to the creation time. A kube-controller-manager v1.32.13 deleted the pod with more
  // sidecar restarts.
  const r = rs({ replicas: 1 });
  const u = r.metadata.uid;
  const s = snap({
    replicaSets: [r],
    pods: [
      pod({ name: 'restarting-sidecar', owner: u, ready: false, restarts: [1], sidecarRestarts: [3], createdAgo: 60 * DAY }),
      pod({ name: 'younger', owner: u, ready: false, restarts: [1], sidecarRestarts: [0], createdAgo: MINUTE }),
    ],
  });

  it('1.32 and later: the pod whose sidecar restarted more is deleted', () => {
    for (const minor of [32, 33, 35, 36]) {
      expect(
        planOf(s, bh(minor)).delete.map((d) => [d.name, d.reason]),
        `1.${minor}`,
      ).toEqual([['restarting-sidecar', 'MoreRestarts']]);
    }
  });

  it('1.31 and earlier: sidecar restarts are not compared, the younger pod is deleted', () => {
    for (const minor of [24, 31]) {
      expect(
        planOf(s, bh(minor)).delete.map((d) => [d.name, d.reason]),
        `1.${minor}`,
      ).toEqual([['younger', 'Newer']]);
    }
  });
});

describe('owned pods: by uid up to 1.33, by namespace, kind, name and uid from 1.34', () => {
  // pkg/controller/replicaset/replica_set.go, syncReplicaSet. release-1.33 lists every pod of the
  // namespace (podLister.Pods(ns).List) and ClaimPods (controller_ref_manager.go, ClaimObject)
  // treats a pod as owned when controllerRef.UID equals the ReplicaSet's uid, whatever the kind
  // and name. release-1.34 lists controller.FilterPodsByOwner(podIndexer, &rs.ObjectMeta, rsc.Kind,
  // true): the orphans of the namespace plus the pods under PodControllerIndexKey = namespace/kind/
  // name/uid of the controller reference (kind and name joined the key in PR #134654, picked to
  // release-1.34 as #134658). A pod whose reference carries the uid under another kind or name is
  // never listed: not kept, not counted, not terminating. The key has no apiVersion.
  const r = rs({ replicas: 2 });
  const u = r.metadata.uid;
  const s = snap({
    replicaSets: [r],
    pods: [
      pod({ name: 'mine', owner: u }),
      pod({ name: 'mine-old-api', owner: [controllerRefTo(u, 'web', 'ReplicaSet', 'extensions/v1beta1')] }),
      pod({ name: 'other-name', owner: [controllerRefTo(u, 'web-previous')] }),
      pod({ name: 'other-kind', owner: [controllerRefTo(u, 'web', 'ReplicationController', 'v1')] }),
      pod({ name: 'other-name-unmatched', owner: [controllerRefTo(u, 'web-previous')], labels: { app: 'api' } }),
      pod({ name: 'other-name-terminating', owner: [controllerRefTo(u, 'web-previous')], deleting: true }),
      pod({ name: 'mine-terminating', owner: u, deleting: true }),
    ],
  });
  const gateOn = { DeploymentReplicaSetTerminatingReplicas: true };

  it('1.33: the uid decides; every such pod is kept, released or counted', () => {
    const c = planOf(s, bh(33, gateOn));
    expect(decisions(c)).toEqual({
      mine: 'keep/OwnedMatching',
      'mine-old-api': 'keep/OwnedMatching',
      'other-name': 'keep/OwnedMatching',
      'other-kind': 'keep/OwnedMatching',
      'other-name-unmatched': 'release/OwnedNotMatching',
      'other-name-terminating': 'ignore/Terminating',
      'mine-terminating': 'ignore/Terminating',
    });
    expect(c.replicas.current).toBe(4);
    expect(c.delete).toHaveLength(2);
    expect(c.status.replicas).toBe(4);
    expect(c.status.terminatingReplicas).toBe(2);
  });

  it('1.34 to 1.37: only pods whose reference names this ReplicaSet are its pods', () => {
    for (const b of [bh(34, gateOn), bh(35), bh(36), bh(37)]) {
      const c = planOf(s, b);
      expect(decisions(c), b.version).toEqual({
        mine: 'keep/OwnedMatching',
        'mine-old-api': 'keep/OwnedMatching',
        'mine-terminating': 'ignore/Terminating',
      });
      expect(c.replicas.current, b.version).toBe(2);
      expect(c.create.count, b.version).toBe(0);
      expect(c.delete, b.version).toEqual([]);
      expect(c.status.replicas, b.version).toBe(2);
      expect(c.status.terminatingReplicas, b.version).toBe(1);
    }
  });

  it('a ReplicationController: a reference with its uid but kind ReplicaSet is its pod up to 1.33 only', () => {
    const c = rc({ replicas: 1 });
    const t = snap({ rcs: [c], pods: [pod({ name: 'as-rs', owner: [controllerRefTo(c.metadata.uid, 'web-rc', 'ReplicaSet')] })] });
    expect(decisions(planOf(t, bh(33), 'web-rc', 'ReplicationController'))).toEqual({ 'as-rs': 'keep/OwnedMatching' });
    const later = planOf(t, bh(34), 'web-rc', 'ReplicationController');
    expect(later.pods).toEqual([]);
    expect(later.create.count).toBe(1);
  });

  it('an invalid selector: the owned count shown follows the same rule', () => {
    const bad = rs({ replicas: 2, selector: { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['web'] }] } });
    const t = snap({ replicaSets: [bad], pods: s.pods });
    expect(planOf(t, bh(33)).replicas.current).toBe(5); // every active pod carrying the uid
    expect(planOf(t, bh(35)).replicas.current).toBe(2); // mine, mine-old-api
  });
});

describe('terminatingReplicas of ReplicationControllers: 1.33 with the gate on only', () => {
  // pkg/controller/replicaset/replica_set_utils.go, calculateStatus: release-1.33 sets
  // TerminatingReplicas whenever the gate DeploymentReplicaSetTerminatingReplicas is on, for the
  // ReplicationController manager too, whose API drops the field, so updateReplicaSetStatus sees
  // nil ≠ 0 and writes on every sync (issue #131821). release-1.34 adds the controller switch
  // EnableStatusTerminatingReplicas, false in pkg/controller/replication/replication_controller.go
  // NewReplicationManager (PR #131822, in v1.34.0, not picked to 1.33).
  const c = rc({ replicas: 1, status: counters(1) });
  const u = c.metadata.uid;
  const s = snap({
    rcs: [c],
    pods: [
      pod({ name: 'live', owner: u, ready: true, readyAgo: DAY }),
      pod({ name: 'going', owner: u, deleting: true }),
      pod({ name: 'going-unmatched', owner: u, deleting: true, labels: { app: 'api' } }),
    ],
  });
  const gateOn = { DeploymentReplicaSetTerminatingReplicas: true };

  it('1.33, gate forced on: counted, and the status is rewritten though nothing else changed', () => {
    const p = planOf(s, bh(33, gateOn), 'web-rc', 'ReplicationController');
    expect(p.status.terminatingReplicas).toBe(1);
    expect(p.statusChanged).toBe(true);
    expect(p.inSync).toBe(false);
  });

  it('1.33 with the gate off (its default): not counted, nothing to write', () => {
    const p = planOf(s, bh(33), 'web-rc', 'ReplicationController');
    expect(p.status.terminatingReplicas).toBeUndefined();
    expect(p.statusChanged).toBe(false);
  });

  it('1.34 gate forced on, 1.35 to 1.37 by default: not counted, nothing to write', () => {
    for (const b of [bh(34, gateOn), bh(35), bh(36), bh(37)]) {
      const p = planOf(s, b, 'web-rc', 'ReplicationController');
      expect(p.status.terminatingReplicas, b.version).toBeUndefined();
      expect(p.statusChanged, b.version).toBe(false);
      expect(p.inSync, b.version).toBe(true);
    }
  });

  it('ReplicaSets count them on either side once the gate is on', () => {
    const r = rs({ replicas: 1 });
    const t = snap({ replicaSets: [r], pods: [pod({ name: 'live', owner: r.metadata.uid }), pod({ name: 'going', owner: r.metadata.uid, deleting: true })] });
    expect(planOf(t, bh(33, gateOn)).status.terminatingReplicas).toBe(1);
    expect(planOf(t, bh(34, gateOn)).status.terminatingReplicas).toBe(1);
  });
});
