// A saved plan is applied only when planning again gives the same actions (plan-format.md,
// "Applying a saved plan"): same controller uid, same pods adopted, released and deleted, same
// create count, same status write. Explanations (messages, times) may change.
import { describe, expect, it } from 'vitest';
import { planSnapshot } from '../../../src/core/plan.js';
import { staleness } from '../../../src/core/plan-compare.js';
import type { Plan } from '../../../src/core/plan-types.js';
import type { Snapshot } from '../../../src/core/types.js';
import { bh, controllerRefTo, MINUTE, NOW, pod, rs } from './helpers.js';

function world(replicas: number, podNames = ['a', 'b', 'c', 'd']): Snapshot {
  const web = rs({ name: 'web', replicas });
  return {
    controllers: { ReplicaSet: [web], ReplicationController: [] },
    pods: podNames.map((n, i) =>
      pod({ name: n, labels: { app: 'web' }, owner: [controllerRefTo(web.metadata.uid, 'web')], ready: true, readyAgo: (i + 1) * 10 * MINUTE, node: 'n1' }),
    ),
  };
}
const plan = (s: Snapshot, minor = 35, now = NOW): Plan => planSnapshot(s, { now, behaviour: bh(minor), source: 'cluster' });

describe('staleness of a saved plan', () => {
  it('the same state planned again later is not stale: times and messages are not actions', () => {
    expect(staleness(plan(world(2)), plan(world(2), 35, NOW + 5_000))).toEqual([]);
  });

  it('other victims are a difference (the status to write, counted before the deletes, is the same)', () => {
    expect(staleness(plan(world(2)), plan(world(1)))).toEqual(['ReplicaSet default/web: delete: a, b in the plan, a, b, c now']);
  });

  it('another status to write is a difference', () => {
    const s = world(4, ['a', 'b', 'c', 'd']);
    s.pods[0].status!.conditions = [{ type: 'Ready', status: 'False' }];
    expect(staleness(plan(world(4)), plan(s))).toEqual(['ReplicaSet default/web: status to write: readyReplicas 4 in the plan, 3 now']);
  });

  it('a victim re-created under the same name is another pod (by uid)', () => {
    const saved = plan(world(3));
    const s = world(3);
    const victim = saved.controllers[0].delete[0].name;
    s.pods.find((p) => p.metadata.name === victim)!.metadata.uid = 'other-uid';
    const diffs = staleness(saved, plan(s));
    expect(diffs).toEqual([`ReplicaSet default/web: delete: ${victim} in the plan, ${victim} now`]);
  });

  it('creates count: 2 in the plan, 1 now', () => {
    expect(staleness(plan(world(6)), plan(world(5)))).toContain('ReplicaSet default/web: create: 2 in the plan, 1 now');
  });

  it('a re-created controller (new uid) or a deleted one', () => {
    const saved = plan(world(2));
    const s = world(2);
    s.controllers.ReplicaSet[0].metadata.uid = 'new-uid';
    expect(staleness(saved, plan(s))[0]).toMatch(/re-created \(uid .* in the plan, new-uid now\)/);
    expect(staleness(saved, plan({ controllers: { ReplicaSet: [], ReplicationController: [] }, pods: [] }))).toEqual([
      'ReplicaSet default/web: not found any more',
    ]);
  });

  it('another Kubernetes version refuses the whole plan', () => {
    expect(staleness(plan(world(2), 30), plan(world(2), 35))).toEqual([
      'the plan was made for Kubernetes 1.30; the controller of this cluster behaves as 1.35',
    ]);
  });

  it('a controller in sync in the plan that would act now makes it stale', () => {
    const saved = plan(world(4));
    expect(saved.controllers[0].inSync).toBe(false); // status differs: the builder leaves status empty
    const s = world(4);
    s.controllers.ReplicaSet[0].status = { ...saved.controllers[0].status, observedGeneration: s.controllers.ReplicaSet[0].metadata.generation ?? 0 };
    const inSync = plan(s);
    expect(inSync.controllers[0].inSync).toBe(true);
    expect(staleness(inSync, plan(world(3), 35))).toEqual(expect.arrayContaining([expect.stringMatching(/delete: none in the plan, \w now/)]));
  });
});
