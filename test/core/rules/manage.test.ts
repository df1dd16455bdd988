// §6 manageReplicas: slow start (§6.1), burst cap, deletion choice (§6.2), colocation ranks from
// sibling ReplicaSets (§6.2 step 2–3, pitfall 11), scale to zero unsorted (pitfall 8).
import { describe, expect, it } from 'vitest';
import { BURST_REPLICAS, choosePodsToDelete, podsPerNode, slowStartBatches } from '../../../src/core/manage.js';
import { planSnapshot } from '../../../src/core/plan.js';
import type { PlanController } from '../../../src/core/plan-types.js';
import type { Pod, Snapshot } from '../../../src/core/types.js';
import { bh, DAY, HOUR, MINUTE, NOW, pod, rc, rs, snap, type PodOpts } from './helpers.js';

const B35 = bh(35);
function planOf(s: Snapshot, name: string, kind = 'ReplicaSet', opts: { burstReplicas?: number } = {}): PlanController {
  const plan = planSnapshot(s, { now: NOW, behaviour: B35, source: 'file', ...opts });
  const c = plan.controllers.find((x) => x.name === name && x.kind === kind);
  if (!c) throw new Error(`${name} not planned`);
  return c;
}
const same = (o: Partial<PodOpts> & { name: string }): Pod => pod({ ready: true, readyAgo: DAY, createdAgo: 2 * DAY, ...o });

describe('§6.1 slowStartBatch sizes', () => {
  it.each([
    [0, []],
    [1, [1]],
    [2, [1, 1]],
    [3, [1, 2]],
    [5, [1, 2, 2]],
    [10, [1, 2, 4, 3]],
    [100, [1, 2, 4, 8, 16, 32, 37]],
    [500, [1, 2, 4, 8, 16, 32, 64, 128, 245]],
  ])('n=%d → %j', (n, batches) => {
    expect(slowStartBatches(n)).toEqual(batches);
  });
  it('sizes double and sum to n; the last is the remainder', () => {
    for (let n = 1; n <= 600; n++) {
      const b = slowStartBatches(n);
      expect(b.reduce((x, y) => x + y, 0)).toBe(n);
      for (let i = 1; i < b.length - 1; i++) expect(b[i]).toBe(2 * b[i - 1]);
      expect(b[0]).toBe(1);
      expect(b[b.length - 1]).toBeLessThanOrEqual(2 * (b[b.length - 2] ?? 0.5));
    }
  });
});

describe('§6.1 burst cap on creates', () => {
  it('BurstReplicas is 500', () => expect(BURST_REPLICAS).toBe(500));
  it('600 missing → create 500 in the 500-batches', () => {
    const c = planOf(snap({ replicaSets: [rs({ replicas: 600 })] }), 'web');
    expect(c.create).toEqual({ count: 500, batches: [1, 2, 4, 8, 16, 32, 64, 128, 245] });
    expect(c.status.replicas).toBe(0);
  });
  it('exactly 500 missing is not capped', () => {
    expect(planOf(snap({ replicaSets: [rs({ replicas: 500 })] }), 'web').create.count).toBe(500);
  });
  it('a custom burst caps at that value', () => {
    const c = planOf(snap({ replicaSets: [rs({ replicas: 10 })] }), 'web', 'ReplicaSet', { burstReplicas: 3 });
    expect(c.create).toEqual({ count: 3, batches: [1, 2] });
  });
  it('counts missing pods against claimed pods (adopted orphans count, terminating pods do not)', () => {
    const r = rs({ replicas: 5 });
    const pods = [
      pod({ name: 'own', owner: r.metadata.uid }),
      pod({ name: 'orphan' }),
      pod({ name: 'term', owner: r.metadata.uid, deleting: true }),
      pod({ name: 'done', owner: r.metadata.uid, phase: 'Succeeded' }),
    ];
    const c = planOf(snap({ replicaSets: [r], pods }), 'web');
    expect(c.create).toEqual({ count: 3, batches: [1, 2] });
  });
});

describe('§6.2 burst cap on deletes', () => {
  it('600 surplus → delete 500, sorted (some pods stay, so not ScaleToZero)', () => {
    const r = rs({ replicas: 0 });
    const pods: Pod[] = [];
    for (let i = 0; i < 600; i++) pods.push(same({ name: `p${String(i).padStart(3, '0')}`, uid: `u${i}`, owner: r.metadata.uid, ready: i >= 100 }));
    const c = planOf(snap({ replicaSets: [r], pods }), 'web');
    expect(c.delete).toHaveLength(500);
    // the 100 not-ready pods go first
    const first100 = new Set(c.delete.slice(0, 100).map((d) => d.name));
    for (let i = 0; i < 100; i++) expect(first100.has(`p${String(i).padStart(3, '0')}`)).toBe(true);
    expect(c.delete.slice(0, 100).every((d) => d.reason === 'NotReady')).toBe(true);
    expect(c.delete.some((d) => d.reason === 'ScaleToZero')).toBe(false);
  });
  it('a custom burst caps deletes too', () => {
    const r = rs({ replicas: 1 });
    const pods = [0, 1, 2, 3].map((i) => same({ name: `p${i}`, owner: r.metadata.uid }));
    expect(planOf(snap({ replicaSets: [r], pods }), 'web', 'ReplicaSet', { burstReplicas: 2 }).delete).toHaveLength(2);
  });
});

describe('§6.2 step 3 scale to zero', () => {
  it('n == len: every claimed pod deleted with reason ScaleToZero', () => {
    const r = rs({ replicas: 0 });
    const pods = [same({ name: 'a', owner: r.metadata.uid }), same({ name: 'b', owner: r.metadata.uid, ready: false }), same({ name: 'c' })];
    const c = planOf(snap({ replicaSets: [r], pods }), 'web');
    expect(c.delete.map((d) => d.name).sort()).toEqual(['a', 'b', 'c']);
    expect(c.delete.every((d) => d.reason === 'ScaleToZero')).toBe(true);
    expect(c.status.replicas).toBe(3);
  });
  it('choosePodsToDelete with n == len does not sort', () => {
    const pods = [same({ name: 'ready' }), same({ name: 'notready', ready: false })];
    const choice = choosePodsToDelete(pods, 2, new Map(), NOW, B35);
    expect(choice.sorted).toBe(false);
    expect(choice.firstKept).toBeNull();
    expect(choice.victims.map((v) => v.reason)).toEqual(['ScaleToZero', 'ScaleToZero']);
  });
  it('choosePodsToDelete with n < len sorts and names the reason against the first kept pod', () => {
    const pods = [same({ name: 'keep' }), same({ name: 'newer', createdAgo: HOUR }), same({ name: 'notready', ready: false })];
    const choice = choosePodsToDelete(pods, 2, new Map(), NOW, B35);
    expect(choice.victims.map((v) => [v.facts.pod.metadata.name, v.reason])).toEqual([
      ['notready', 'NotReady'],
      ['newer', 'Newer'],
    ]);
    expect(choice.firstKept?.pod.metadata.name).toBe('keep');
  });
  it('reasons are relative to the first kept pod, not to the next victim', () => {
    // a: unscheduled; b: not ready; kept k: ready. b's reason vs k is NotReady.
    const pods = [same({ name: 'k' }), same({ name: 'b', ready: false }), same({ name: 'a', node: '' })];
    const choice = choosePodsToDelete(pods, 2, new Map(), NOW, B35);
    expect(choice.victims.map((v) => [v.facts.pod.metadata.name, v.reason])).toEqual([
      ['a', 'Unscheduled'],
      ['b', 'NotReady'],
    ]);
  });
  it('identical pods: the victim is reported as Tie', () => {
    const pods = [same({ name: 'a', uid: 'a' }), same({ name: 'b', uid: 'b' })];
    const choice = choosePodsToDelete(pods, 1, new Map(), NOW, B35);
    expect(choice.victims.map((v) => v.reason)).toEqual(['Tie']);
  });
});

describe('§6.2 step 2–3 colocation ranks', () => {
  const DEP = 'dep-uid';
  it('podsPerNode counts active pods per node; unscheduled pods share ""; inactive pods do not count', () => {
    const m = podsPerNode([
      pod({ name: 'a', node: 'n1' }),
      pod({ name: 'b', node: 'n1' }),
      pod({ name: 'c', node: '' }),
      pod({ name: 'd', node: '' }),
      pod({ name: 'e', node: 'n1', phase: 'Succeeded' }),
      pod({ name: 'f', node: 'n1', deleting: true }),
      pod({ name: 'g', node: 'n2', phase: 'Failed' }),
    ]);
    expect(m.get('n1')).toBe(2);
    expect(m.get('')).toBe(2);
    expect(m.get('n2') ?? 0).toBe(0);
  });

  it('sibling ReplicaSets of the same owner count, ownership not checked (orphans matching a sibling selector count)', () => {
    const a = rs({ name: 'a', replicas: 1, owner: DEP, selector: { matchLabels: { app: 'web', h: 'a' } }, templateLabels: { app: 'web', h: 'a' } });
    const b = rs({ name: 'b', replicas: 0, owner: DEP, selector: { matchLabels: { app: 'web', h: 'b' } }, templateLabels: { app: 'web', h: 'b' } });
    const pods = [
      same({ name: 'a1', node: 'n1', labels: { app: 'web', h: 'a' }, owner: a.metadata.uid, readyAgo: MINUTE }),
      same({ name: 'a2', node: 'n2', labels: { app: 'web', h: 'a' }, owner: a.metadata.uid, readyAgo: 30 * DAY }),
      // matches b's selector, owned by nobody: counts on n2
      same({ name: 'o1', node: 'n2', labels: { app: 'web', h: 'b' } }),
    ];
    // ranks: a1 (n1) = 1, a2 (n2) = 2 → a2 first although ready longer
    const c = planOf(snap({ replicaSets: [a, b], pods }), 'a');
    expect(c.delete.map((d) => [d.name, d.reason])).toEqual([['a2', 'MoreOnSameNode']]);
  });

  it('a pod owned by another controller that matches a sibling selector still counts', () => {
    const a = rs({ name: 'a', replicas: 1, owner: DEP, selector: { matchLabels: { h: 'a' } }, templateLabels: { h: 'a' } });
    const b = rs({ name: 'b', replicas: 0, owner: DEP, selector: { matchLabels: { h: 'b' } }, templateLabels: { h: 'b' } });
    const pods = [
      same({ name: 'a1', node: 'n1', labels: { h: 'a' }, owner: a.metadata.uid, readyAgo: MINUTE }),
      same({ name: 'a2', node: 'n2', labels: { h: 'a' }, owner: a.metadata.uid, readyAgo: 30 * DAY }),
      same({ name: 'x', node: 'n2', labels: { h: 'b' }, owner: 'somebody-else' }),
    ];
    expect(planOf(snap({ replicaSets: [a, b], pods }), 'a').delete.map((d) => [d.name, d.reason])).toEqual([['a2', 'MoreOnSameNode']]);
  });

  it('inactive related pods do not count', () => {
    const a = rs({ name: 'a', replicas: 1, owner: DEP, selector: { matchLabels: { h: 'a' } }, templateLabels: { h: 'a' } });
    const b = rs({ name: 'b', replicas: 0, owner: DEP, selector: { matchLabels: { h: 'b' } }, templateLabels: { h: 'b' } });
    const pods = [
      same({ name: 'a1', node: 'n1', labels: { h: 'a' }, owner: a.metadata.uid, createdAgo: 30 * DAY }),
      same({ name: 'a2', node: 'n2', labels: { h: 'a' }, owner: a.metadata.uid, createdAgo: HOUR }),
      same({ name: 'b1', node: 'n1', labels: { h: 'b' }, owner: b.metadata.uid, phase: 'Succeeded' }),
      same({ name: 'b2', node: 'n1', labels: { h: 'b' }, owner: b.metadata.uid, deleting: true }),
      same({ name: 'b3', node: 'n1', labels: { h: 'b' }, owner: b.metadata.uid, phase: 'Failed' }),
    ];
    // ranks equal (1 and 1): a2 is newer
    expect(planOf(snap({ replicaSets: [a, b], pods }), 'a').delete.map((d) => [d.name, d.reason])).toEqual([['a2', 'Newer']]);
  });

  it('ReplicaSets of another owner are not siblings', () => {
    const a = rs({ name: 'a', replicas: 1, owner: DEP, selector: { matchLabels: { h: 'a' } }, templateLabels: { h: 'a' } });
    const z = rs({ name: 'z', replicas: 2, owner: 'other-dep', selector: { matchLabels: { h: 'z' } }, templateLabels: { h: 'z' } });
    const pods = [
      same({ name: 'a1', node: 'n1', labels: { h: 'a' }, owner: a.metadata.uid, createdAgo: 30 * DAY }),
      same({ name: 'a2', node: 'n2', labels: { h: 'a' }, owner: a.metadata.uid, createdAgo: HOUR }),
      same({ name: 'z1', node: 'n1', labels: { h: 'z' }, owner: z.metadata.uid }),
      same({ name: 'z2', node: 'n1', labels: { h: 'z' }, owner: z.metadata.uid }),
    ];
    expect(planOf(snap({ replicaSets: [a, z], pods }), 'a').delete.map((d) => [d.name, d.reason])).toEqual([['a2', 'Newer']]);
  });

  it('a sibling being deleted still counts; a sibling with an invalid selector is skipped', () => {
    const a = rs({ name: 'a', replicas: 1, owner: DEP, selector: { matchLabels: { h: 'a' } }, templateLabels: { h: 'a' } });
    const b = rs({ name: 'b', replicas: 0, owner: DEP, deleting: true, selector: { matchLabels: { h: 'b' } }, templateLabels: { h: 'b' } });
    const bad = rs({
      name: 'bad',
      replicas: 0,
      owner: DEP,
      selector: { matchExpressions: [{ key: 'h', operator: 'Equals', values: ['c'] }] },
      templateLabels: { h: 'c' },
    });
    const pods = [
      same({ name: 'a1', node: 'n1', labels: { h: 'a' }, owner: a.metadata.uid, readyAgo: MINUTE }),
      same({ name: 'a2', node: 'n2', labels: { h: 'a' }, owner: a.metadata.uid, readyAgo: 30 * DAY }),
      same({ name: 'b1', node: 'n2', labels: { h: 'b' }, owner: b.metadata.uid }),
      same({ name: 'c1', node: 'n1', labels: { h: 'c' } }),
      same({ name: 'c2', node: 'n1', labels: { h: 'c' } }),
    ];
    // n1: a1 only (c* not counted: invalid selector); n2: a2 + b1
    expect(planOf(snap({ replicaSets: [a, b, bad], pods }), 'a').delete.map((d) => [d.name, d.reason])).toEqual([['a2', 'MoreOnSameNode']]);
  });

  it('siblings in the same namespace only: pods of other namespaces do not count', () => {
    const a = rs({ name: 'a', replicas: 1, owner: DEP, selector: { matchLabels: { h: 'a' } }, templateLabels: { h: 'a' } });
    const pods = [
      same({ name: 'a1', node: 'n1', labels: { h: 'a' }, owner: a.metadata.uid, createdAgo: 30 * DAY }),
      same({ name: 'a2', node: 'n2', labels: { h: 'a' }, owner: a.metadata.uid, createdAgo: HOUR }),
      same({ name: 'x1', ns: 'other', node: 'n1', labels: { h: 'a' } }),
      same({ name: 'x2', ns: 'other', node: 'n1', labels: { h: 'a' } }),
    ];
    expect(planOf(snap({ replicaSets: [a], pods }), 'a').delete.map((d) => [d.name, d.reason])).toEqual([['a2', 'Newer']]);
  });

  it('a standalone ReplicaSet (no controller owner) ranks every pod 0 — even its own pods do not count', () => {
    const r = rs({ replicas: 2 });
    const pods = [
      same({ name: 'p1', node: 'n1', owner: r.metadata.uid, createdAgo: 30 * DAY }),
      same({ name: 'p2', node: 'n1', owner: r.metadata.uid, createdAgo: 30 * DAY + HOUR }),
      same({ name: 'p3', node: 'n2', owner: r.metadata.uid, createdAgo: HOUR }),
    ];
    expect(planOf(snap({ replicaSets: [r], pods }), 'web').delete.map((d) => [d.name, d.reason])).toEqual([['p3', 'Newer']]);
  });

  it('with an owner, the RS’s own pods count for each other', () => {
    // p1, p2 share n1 (rank 2), p3 is alone (rank 1) but newer: rank decides first.
    const r = rs({ replicas: 1, owner: DEP });
    const pods = [
      same({ name: 'p1', node: 'n1', owner: r.metadata.uid, createdAgo: 30 * DAY }),
      same({ name: 'p2', node: 'n1', owner: r.metadata.uid, createdAgo: 30 * DAY }),
      same({ name: 'p3', node: 'n2', owner: r.metadata.uid, createdAgo: HOUR }),
    ];
    const c = planOf(snap({ replicaSets: [r], pods }), 'web');
    expect(c.delete.map((d) => d.name).sort()).toEqual(['p1', 'p2']);
    expect(c.delete.map((d) => d.reason)).toEqual(['MoreOnSameNode', 'MoreOnSameNode']);
  });

  it('§13 ReplicationControllers rank every pod 0 even with a controller owner', () => {
    const r = rc({ replicas: 2, ownerRef: { apiVersion: 'example.com/v1', kind: 'Thing', name: 't', uid: DEP, controller: true } });
    const pods = [
      same({ name: 'p1', node: 'n1', owner: r.metadata.uid, createdAgo: 30 * DAY }),
      same({ name: 'p2', node: 'n1', owner: r.metadata.uid, createdAgo: 30 * DAY + HOUR }),
      same({ name: 'p3', node: 'n2', owner: r.metadata.uid, createdAgo: HOUR }),
    ];
    expect(planOf(snap({ rcs: [r], pods }), 'web-rc', 'ReplicationController').delete.map((d) => [d.name, d.reason])).toEqual([['p3', 'Newer']]);
  });
});
