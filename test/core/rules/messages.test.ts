// The sentences of the plan and of `version` (src/core/messages.ts): a tie names colocation's
// scope when the controller has no owner group (§6.2 step 2: related pods are those of the
// ReplicaSets sharing the controller owner; a standalone ReplicaSet has none), and the
// behaviour features follow the version and the gates.
import { describe, expect, it } from 'vitest';
import { behaviourFeatures } from '../../../src/core/messages.js';
import { planSnapshot } from '../../../src/core/plan.js';
import type { Pod } from '../../../src/core/types.js';
import { bh, DAY, NOW, pod, rc, rs, snap, type PodOpts } from './helpers.js';

const twin = (o: Partial<PodOpts> & { name: string }): Pod => pod({ ready: true, readyAgo: DAY, createdAgo: 2 * DAY, node: 'n1', ...o });

function tieMessage(s: Parameters<typeof planSnapshot>[0], kind: string): string {
  const plan = planSnapshot(s, { now: NOW, behaviour: bh(35), source: 'file' });
  const c = plan.controllers.find((x) => x.kind === kind)!;
  expect(c.delete.map((d) => d.reason)).toEqual(['Tie']);
  return c.delete[0].message;
}

describe('the tie sentence', () => {
  it('says that colocation only counts pods of ReplicaSets sharing an owner, for a standalone ReplicaSet', () => {
    const m = tieMessage(
      snap({
        replicaSets: [rs({ replicas: 1 })],
        pods: [twin({ name: 'a', uid: 'a', owner: 'rs-uid-web' }), twin({ name: 'b', uid: 'b', owner: 'rs-uid-web' })],
      }),
      'ReplicaSet',
    );
    expect(m).toContain('equal on every ranking criterion');
    expect(m).toContain(
      'colocation (a standalone ReplicaSet: colocation only counts pods of ReplicaSets sharing its controller owner, so here it ranks every pod alike)',
    );
  });

  it('names colocation plainly when the ReplicaSet has an owner (its siblings count)', () => {
    const m = tieMessage(
      snap({
        replicaSets: [rs({ replicas: 1, owner: 'dep-uid' })],
        pods: [twin({ name: 'a', uid: 'a', owner: 'rs-uid-web' }), twin({ name: 'b', uid: 'b', owner: 'rs-uid-web' })],
      }),
      'ReplicaSet',
    );
    expect(m).toContain('(node, phase, readiness, cost, colocation, ready time, restarts, age)');
    expect(m).not.toContain('standalone');
  });

  it('says so for a ReplicationController too', () => {
    const m = tieMessage(
      snap({
        rcs: [rc({ replicas: 1 })],
        pods: [twin({ name: 'a', uid: 'a', owner: 'rc-uid-web-rc' }), twin({ name: 'b', uid: 'b', owner: 'rc-uid-web-rc' })],
      }),
      'ReplicationController',
    );
    expect(m).toContain('colocation (a ReplicationController: colocation only counts pods of ReplicaSets sharing a controller owner');
  });
});

describe('the behaviour features of version', () => {
  const on = (minor: number, gates = {}) => Object.fromEntries(behaviourFeatures(bh(minor, gates)).map((f) => [f.name, f.on]));

  it('follow the release: sidecar restarts from 1.32, inclusive availability and the owner index from 1.34', () => {
    expect(on(31)).toMatchObject({ sidecarRestarts: false, availabilityInclusive: false, ownerIndex: false, DeploymentReplicaSetTerminatingReplicas: false });
    expect(on(32)).toMatchObject({ sidecarRestarts: true, availabilityInclusive: false, ownerIndex: false });
    expect(on(34)).toMatchObject({
      sidecarRestarts: true,
      availabilityInclusive: true,
      nextAvailableRequeue: true,
      ownerIndex: true,
      DeploymentReplicaSetTerminatingReplicas: false,
    });
    expect(on(35)).toMatchObject({ DeploymentReplicaSetTerminatingReplicas: true, PodDeletionCost: true });
  });

  it('follow the gates given', () => {
    expect(on(35, { PodDeletionCost: false })).toMatchObject({ PodDeletionCost: false, LogarithmicScaleDown: true });
    for (const f of behaviourFeatures(bh(35))) expect(f.description.length, f.name).toBeGreaterThan(10);
  });
});
