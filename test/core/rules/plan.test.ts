// The planner (§2 syncReplicaSet per controller, §15 mapping to plan-format.md): skips, listing
// rules, namespaces, what-if scale, summary, ordering, inSync.
import { describe, expect, it } from 'vitest';
import { planSnapshot, type PlanOptions } from '../../../src/core/plan.js';
import type { Plan, PlanController } from '../../../src/core/plan-types.js';
import type { Snapshot } from '../../../src/core/types.js';
import { bh, DAY, HOUR, NOW, pod, rc, rs, snap } from './helpers.js';

const B35 = bh(35);
const run = (s: Snapshot, o: Partial<PlanOptions> = {}): Plan => planSnapshot(s, { now: NOW, behaviour: B35, source: 'file', ...o });
function find(p: Plan, name: string, kind = 'ReplicaSet', ns = 'default'): PlanController {
  const c = p.controllers.find((x) => x.name === name && x.kind === kind && x.namespace === ns);
  if (!c) throw new Error(`${kind} ${ns}/${name} not planned`);
  return c;
}
const byDecision = (c: PlanController) => Object.fromEntries(c.pods.map((p) => [p.name, `${p.decision}/${p.reason}`]));
const full = (n: number, gen = 1) => ({
  replicas: n,
  fullyLabeledReplicas: n,
  readyReplicas: n,
  availableReplicas: n,
  observedGeneration: gen,
  terminatingReplicas: 0,
});

describe('plan envelope', () => {
  it('apiVersion, kind, now, kubernetesVersion, source', () => {
    const p = run(snap({}), { source: 'cluster', behaviour: bh(32) });
    expect(p.apiVersion).toBe('rs-reconcile/v1alpha1');
    expect(p.kind).toBe('ReconcilePlan');
    expect(p.now).toBe('2026-01-01T00:00:00Z');
    expect(p.kubernetesVersion).toBe('1.32');
    expect(p.source).toBe('cluster');
    expect(p.controllers).toEqual([]);
  });
});

describe('§2 step 4 InvalidSelector', () => {
  it('skip InvalidSelector: no pods, no actions, no status write, no requeue; other controllers planned', () => {
    const bad = rs({
      name: 'bad',
      replicas: 3,
      generation: 2,
      minReadySeconds: 5,
      selector: { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['web'] }] },
      status: full(9, 1),
    });
    const good = rs({ name: 'good', replicas: 2 });
    const pods = [pod({ name: 'own', owner: bad.metadata.uid }), pod({ name: 'orphan' }), pod({ name: 'orphan2' })];
    const p = run(snap({ replicaSets: [bad, good], pods }));
    const b = find(p, 'bad');
    expect(b.skip?.reason).toBe('InvalidSelector');
    expect(b.pods).toEqual([]);
    expect(b.create.count).toBe(0);
    expect(b.delete).toEqual([]);
    expect(b.statusChanged).toBe(false);
    expect(b.requeueAfterSeconds).toBeNull();
    // nothing is done for it, and nothing will be until the selector is fixed: not in sync
    expect(b.inSync).toBe(false);
    expect(p.summary.inSync).toBe(0);
    // the status is the current one, not recomputed (observedGeneration not bumped)
    expect(b.status.replicas).toBe(9);
    expect(b.status.observedGeneration).toBe(1);
    const g = find(p, 'good');
    expect(g.skip).toBeNull();
    expect(byDecision(g)).toEqual({ orphan: 'adopt/OrphanMatching', orphan2: 'adopt/OrphanMatching', own: 'ignore/OwnedByOther' });
    expect(p.summary.statusUpdates).toBe(1);
  });
  it.each([
    ['In without values', { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }],
    ['Exists with values', { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['web'] }] }],
    ['bad key', { matchLabels: { 'Bad.Prefix/app': 'web' } }],
    ['bad value', { matchLabels: { app: 'web!' } }],
    ['lower-case in', { matchExpressions: [{ key: 'app', operator: 'in', values: ['web'] }] }],
  ])('%s → InvalidSelector', (_n, selector) => {
    const p = run(snap({ replicaSets: [rs({ selector: selector as any })], pods: [pod({ name: 'x' })] }));
    expect(find(p, 'web').skip?.reason).toBe('InvalidSelector');
  });
});

describe('§2 step 9 ControllerDeleting', () => {
  it('status still computed and written; nothing adopted, released, created or deleted', () => {
    const r = rs({ replicas: 5, deleting: true, generation: 2, status: full(0, 1) });
    const u = r.metadata.uid;
    const pods = [pod({ name: 'keep', owner: u, ready: true }), pod({ name: 'orphan' }), pod({ name: 'nomatch', owner: u, labels: { app: 'x' } })];
    const c = find(run(snap({ replicaSets: [r], pods })), 'web');
    expect(c.skip?.reason).toBe('ControllerDeleting');
    expect(byDecision(c)).toEqual({ keep: 'keep/OwnedMatching', orphan: 'ignore/ControllerDeleting', nomatch: 'ignore/ControllerDeleting' });
    expect(c.create.count).toBe(0);
    expect(c.status.replicas).toBe(1);
    expect(c.statusChanged).toBe(true);
    expect(c.status.observedGeneration).toBe(2);
    expect(c.replicas).toEqual({ desired: 5, current: 1 });
  });
  it('no deletes of a surplus while being deleted', () => {
    const r = rs({ replicas: 0, deleting: true });
    const c = find(run(snap({ replicaSets: [r], pods: [pod({ name: 'a', owner: r.metadata.uid })] })), 'web');
    expect(c.delete).toEqual([]);
    expect(c.status.replicas).toBe(1);
  });
});

describe('§2 steps 5–7: which pods a controller lists', () => {
  it('inactive pods that match or are owned are listed as ignore Inactive / Terminating', () => {
    const r = rs({ replicas: 1 });
    const u = r.metadata.uid;
    const pods = [
      pod({ name: 'ok', owner: u }),
      pod({ name: 'failed', owner: u, phase: 'Failed' }),
      pod({ name: 'succeeded', phase: 'Succeeded' }),
      pod({ name: 'term', owner: u, deleting: true }),
      pod({ name: 'term-orphan', deleting: true }),
      pod({ name: 'failed-nomatch-orphan', phase: 'Failed', labels: { app: 'x' } }),
    ];
    const c = find(run(snap({ replicaSets: [r], pods })), 'web');
    expect(byDecision(c)).toEqual({
      ok: 'keep/OwnedMatching',
      failed: 'ignore/Inactive',
      succeeded: 'ignore/Inactive',
      term: 'ignore/Terminating',
      'term-orphan': 'ignore/Terminating',
    });
  });
  it('pods of other namespaces are never considered, even when owned by the controller’s uid or matching', () => {
    const r = rs({ replicas: 2, ns: 'a' });
    const pods = [pod({ name: 'here', ns: 'a' }), pod({ name: 'there', ns: 'b' }), pod({ name: 'there-owned', ns: 'b', owner: r.metadata.uid })];
    const c = find(run(snap({ replicaSets: [r], pods })), 'web', 'ReplicaSet', 'a');
    expect(byDecision(c)).toEqual({ here: 'adopt/OrphanMatching' });
    expect(c.create.count).toBe(1);
  });
  it('pods owned by another controller are listed only when they match', () => {
    const r = rs({ replicas: 1 });
    const pods = [pod({ name: 'other-match', owner: 'x' }), pod({ name: 'other-nomatch', owner: 'x', labels: { app: 'y' } })];
    const c = find(run(snap({ replicaSets: [r], pods })), 'web');
    expect(byDecision(c)).toEqual({ 'other-match': 'ignore/OwnedByOther' });
    expect(c.create.count).toBe(1);
  });
  it('pods are listed by name', () => {
    const r = rs({ replicas: 3 });
    const pods = ['zeta', 'alpha', 'mid'].map((name) => pod({ name }));
    expect(find(run(snap({ replicaSets: [r], pods })), 'web').pods.map((p) => p.name)).toEqual(['alpha', 'mid', 'zeta']);
  });
  it('an adopted pod counts immediately: it may be deleted in the same sync', () => {
    const r = rs({ replicas: 1 });
    const pods = [pod({ name: 'own', owner: r.metadata.uid, ready: true }), pod({ name: 'orphan', ready: false })];
    const c = find(run(snap({ replicaSets: [r], pods })), 'web');
    expect(byDecision(c)).toEqual({ own: 'keep/OwnedMatching', orphan: 'adopt/OrphanMatching' });
    expect(c.delete.map((d) => [d.name, d.reason])).toEqual([['orphan', 'NotReady']]);
    expect(c.status.replicas).toBe(2);
  });
  it('a released pod does not count: it is replaced', () => {
    const r = rs({ replicas: 1 });
    const c = find(run(snap({ replicaSets: [r], pods: [pod({ name: 'p', owner: r.metadata.uid, labels: { app: 'other' } })] })), 'web');
    expect(byDecision(c)).toEqual({ p: 'release/OwnedNotMatching' });
    expect(c.create.count).toBe(1);
    expect(c.status.replicas).toBe(0);
  });
  it('§13 overlapping RS and RC both plan to adopt the same orphan (separate controllers, one snapshot)', () => {
    const p = run(snap({ replicaSets: [rs({ replicas: 1 })], rcs: [rc({ replicas: 1 })], pods: [pod({ name: 'o' })] }));
    expect(byDecision(find(p, 'web'))).toEqual({ o: 'adopt/OrphanMatching' });
    expect(byDecision(find(p, 'web-rc', 'ReplicationController'))).toEqual({ o: 'adopt/OrphanMatching' });
  });
});

describe('what-if replicasOverride', () => {
  it('a scale bumps generation → status write, and the new replicas drive create/delete', () => {
    const r = rs({ replicas: 2, generation: 3, status: full(2, 3) });
    const pods = [pod({ name: 'a', owner: r.metadata.uid, ready: true }), pod({ name: 'b', owner: r.metadata.uid, ready: true })];
    const base = find(run(snap({ replicaSets: [r], pods })), 'web');
    expect(base.statusChanged).toBe(false);
    expect(base.inSync).toBe(true);
    const up = find(run(snap({ replicaSets: [r], pods }), { replicasOverride: () => 5 }), 'web');
    expect(up.replicas.desired).toBe(5);
    expect(up.create.count).toBe(3);
    expect(up.statusChanged).toBe(true);
    expect(up.status.observedGeneration).toBe(4);
    expect(up.status.replicas).toBe(2);
    const down = find(run(snap({ replicaSets: [r], pods }), { replicasOverride: () => 0 }), 'web');
    expect(down.delete).toHaveLength(2);
    expect(down.delete.every((d) => d.reason === 'ScaleToZero')).toBe(true);
  });
  it('an override equal to spec.replicas is no scale: no generation bump', () => {
    const r = rs({ replicas: 2, generation: 3, status: full(2, 3) });
    const pods = [pod({ name: 'a', owner: r.metadata.uid, ready: true }), pod({ name: 'b', owner: r.metadata.uid, ready: true })];
    const c = find(run(snap({ replicaSets: [r], pods }), { replicasOverride: () => 2 }), 'web');
    expect(c.statusChanged).toBe(false);
    expect(c.status.observedGeneration).toBe(3);
  });
  it('the override applies only to the controllers it names', () => {
    const a = rs({ name: 'a', replicas: 1, selector: { matchLabels: { h: 'a' } }, templateLabels: { h: 'a' } });
    const b = rs({ name: 'b', replicas: 1, selector: { matchLabels: { h: 'b' } }, templateLabels: { h: 'b' } });
    const p = run(snap({ replicaSets: [a, b] }), { replicasOverride: (c) => (c.metadata.name === 'a' ? 4 : undefined) });
    expect(find(p, 'a').create.count).toBe(4);
    expect(find(p, 'b').create.count).toBe(1);
  });
});

describe('summary, ordering, inSync, include', () => {
  function world(): Snapshot {
    const inSync = rs({ name: 'steady', ns: 'b', replicas: 1, selector: { matchLabels: { s: '1' } }, templateLabels: { s: '1' }, status: full(1) });
    const grow = rs({ name: 'grow', ns: 'b', replicas: 3, selector: { matchLabels: { g: '1' } }, templateLabels: { g: '1' } });
    const shrink = rs({ name: 'shrink', ns: 'a', replicas: 0, selector: { matchLabels: { k: '1' } }, templateLabels: { k: '1' } });
    const rcA = rc({ name: 'alpha', ns: 'b', replicas: 1, selector: { r: '1' }, templateLabels: { r: '1' } });
    const bad = rs({ name: 'zz-bad', ns: 'a', selector: { matchExpressions: [{ key: 'x', operator: 'Bogus' }] } });
    const pods = [
      pod({ name: 's1', ns: 'b', labels: { s: '1' }, owner: inSync.metadata.uid, ready: true }),
      pod({ name: 'g-adopt', ns: 'b', labels: { g: '1' } }),
      pod({ name: 'g-release', ns: 'b', labels: { g: '2' }, owner: grow.metadata.uid }),
      pod({ name: 'k1', ns: 'a', labels: { k: '1' }, owner: shrink.metadata.uid }),
      pod({ name: 'k2', ns: 'a', labels: { k: '1' }, owner: shrink.metadata.uid }),
      pod({ name: 'r1', ns: 'b', labels: { r: '1' } }),
    ];
    return snap({ replicaSets: [inSync, grow, shrink, bad], rcs: [rcA], pods });
  }
  it('controllers sorted by namespace, then kind, then name', () => {
    const p = run(world());
    expect(p.controllers.map((c) => `${c.namespace}/${c.kind}/${c.name}`)).toEqual([
      'a/ReplicaSet/shrink',
      'a/ReplicaSet/zz-bad',
      'b/ReplicaSet/grow',
      'b/ReplicaSet/steady',
      'b/ReplicationController/alpha',
    ]);
  });
  it('summary counts', () => {
    const p = run(world());
    // steady: in sync; zz-bad: skipped (upstream never syncs it: not in sync)
    // grow: adopt g-adopt, release g-release, create 3-1 = 2; shrink: delete 2; alpha: adopt r1
    expect(p.summary).toEqual({ controllers: 5, inSync: 1, adopt: 2, release: 1, create: 2, delete: 2, statusUpdates: 3 });
  });
  it('inSync: true only without adopt/release/create/delete and without status change', () => {
    const p = run(world());
    expect(Object.fromEntries(p.controllers.map((c) => [c.name, c.inSync]))).toEqual({
      shrink: false,
      'zz-bad': false,
      grow: false,
      steady: true,
      alpha: false,
    });
    // status change alone breaks inSync
    const r = rs({ replicas: 1, status: { ...full(1), readyReplicas: 0, availableReplicas: 0 } });
    const c = find(run(snap({ replicaSets: [r], pods: [pod({ name: 'a', owner: r.metadata.uid, ready: true })] })), 'web');
    expect(c.create.count + c.delete.length).toBe(0);
    expect(c.statusChanged).toBe(true);
    expect(c.inSync).toBe(false);
    // an adoption alone breaks inSync even if the status is unchanged
    const r2 = rs({ replicas: 1, status: full(1) });
    const c2 = find(run(snap({ replicaSets: [r2], pods: [pod({ name: 'a', ready: true })] })), 'web');
    expect(c2.statusChanged).toBe(false);
    expect(c2.inSync).toBe(false);
  });
  it('include limits the reported controllers but siblings are still read', () => {
    const DEP = 'dep';
    const a = rs({ name: 'a', replicas: 1, owner: DEP, selector: { matchLabels: { h: 'a' } }, templateLabels: { h: 'a' } });
    const b = rs({ name: 'b', replicas: 1, owner: DEP, selector: { matchLabels: { h: 'b' } }, templateLabels: { h: 'b' } });
    const pods = [
      pod({ name: 'a1', node: 'n1', labels: { h: 'a' }, owner: a.metadata.uid, ready: true, readyAgo: HOUR }),
      pod({ name: 'a2', node: 'n2', labels: { h: 'a' }, owner: a.metadata.uid, ready: true, readyAgo: 30 * DAY }),
      pod({ name: 'b1', node: 'n2', labels: { h: 'b' }, owner: b.metadata.uid, ready: true }),
    ];
    const p = run(snap({ replicaSets: [a, b], pods }), { include: (c) => c.metadata.name === 'a' });
    expect(p.controllers.map((c) => c.name)).toEqual(['a']);
    expect(p.summary.controllers).toBe(1);
    expect(p.controllers[0].delete.map((d) => [d.name, d.reason])).toEqual([['a2', 'MoreOnSameNode']]);
  });
});

describe('one orphan wanted by two controllers (overlapping selectors)', () => {
  const a = rs({ name: 'api', replicas: 2, selector: { matchLabels: { app: 'api' } }, templateLabels: { app: 'api' } });
  const b = rs({
    name: 'api-canary',
    replicas: 1,
    selector: { matchLabels: { app: 'api', track: 'canary' } },
    templateLabels: { app: 'api', track: 'canary' },
  });
  const pods = [
    pod({ name: 'a1', labels: { app: 'api' }, owner: a.metadata.uid, ready: true }),
    pod({ name: 'orphan', labels: { app: 'api', track: 'canary' }, ready: true }),
  ];
  it('each plan shows the adoption it would attempt, the summary counts the pod once', () => {
    const p = run(snap({ replicaSets: [a, b], pods }));
    expect(byDecision(find(p, 'api')).orphan).toBe('adopt/OrphanMatching');
    expect(byDecision(find(p, 'api-canary')).orphan).toBe('adopt/OrphanMatching');
    expect(p.summary.adopt).toBe(1);
  });
  it('says on both that only the first to patch adopts it, naming the other controller', () => {
    const p = run(snap({ replicaSets: [a, b], pods }));
    for (const [self, other] of [
      ['api', 'api-canary'],
      ['api-canary', 'api'],
    ]) {
      const w = find(p, self).warnings.find((x) => x.code === 'ContestedAdoption');
      expect(w?.pods).toEqual(['orphan']);
      expect(w?.controller).toEqual({ kind: 'ReplicaSet', name: other });
      expect(w?.message).toContain('only the first sync to patch it adopts it');
    }
    const overlap = find(p, 'api').warnings.find((x) => x.code === 'OverlappingSelectors');
    expect(overlap?.controller).toEqual({ kind: 'ReplicaSet', name: 'api-canary' });
  });
  it('a controller being deleted adopts nothing: no contest', () => {
    const deleting = { ...b, metadata: { ...b.metadata, deletionTimestamp: '2025-12-31T00:00:00Z' } };
    const p = run(snap({ replicaSets: [a, deleting], pods }));
    expect(find(p, 'api').warnings.some((x) => x.code === 'ContestedAdoption')).toBe(false);
    expect(p.summary.adopt).toBe(1);
  });
});
