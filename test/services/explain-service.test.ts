// The explain service (src/services/explain-service.ts) on the bundled examples: one controller's
// plan and stories, a Deployment's tree, one pod's story; the refusals explain makes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { explainController, explainPod } from '../../src/services/explain-service.js';
import type { SourceOptions } from '../../src/services/plan-service.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');
const NOW = '2026-01-01T00:00:00Z';
const io = { progress: { update() {}, done() {} } };
const file = (name: string, more: Partial<SourceOptions> = {}): SourceOptions => ({ filename: [join(EXAMPLES, `${name}.yaml`)], connection: {}, ...more });

describe('explainController', () => {
  it('a drifted ReplicaSet: its plan alone, its story, and it acts', async () => {
    const s = await explainController(file('drifted-replicaset'), { now: NOW }, { kind: 'ReplicaSet', name: 'shop-web' }, io);
    expect(s.plan.controllers.map((c) => `${c.kind}/${c.namespace}/${c.name}`)).toEqual(['ReplicaSet/shop/shop-web']);
    expect(s.acts).toBe(true);
    const { models, trees } = s.stories();
    expect(trees).toEqual([]);
    expect(models.map((m) => m.name)).toEqual(['shop-web']);
  });

  it('--replicas: the plan says it is a what-if', async () => {
    const s = await explainController(file('drifted-replicaset'), { now: NOW, replicas: 0 }, { kind: 'ReplicaSet', name: 'shop-web' }, io);
    expect(s.plan.whatIf).toEqual({ replicas: 0 });
  });

  it("deploy/NAME: the Deployment's tree, and its ReplicaSets' stories in the tree's order", async () => {
    const s = await explainController(file('deployment-rollout'), { now: NOW }, { kind: 'Deployment', name: 'checkout' }, io);
    expect(s.stories().trees.map((t) => t.name)).toEqual(['checkout']);
    const inTree = s.stories().trees[0].replicaSets.map((r) => r.name);
    expect(s.stories().models.map((m) => m.name)).toEqual(inTree);
    expect(new Set(inTree)).toEqual(new Set(['checkout-6b8d', 'checkout-9c2f']));
  });

  it("a name not in the input is the user's error", async () => {
    await expect(explainController(file('drifted-replicaset'), { now: NOW }, { kind: 'ReplicaSet', name: 'nope' }, io)).rejects.toBeInstanceOf(UserError);
  });
});

describe('explainPod', () => {
  it("a pod its owner deletes: acts; --replicas reaches the pod's owner, not the plan read", async () => {
    const s = await explainPod(file('orphaned-pods'), { now: NOW }, 'orders-api-z8m3p', io);
    expect(s.explanation.pod.name).toBe('orders-api-z8m3p');
    expect(s.acts).toBe(true);
    const kept = await explainPod(file('orphaned-pods'), { now: NOW }, 'orders-api-r2d9x', io);
    expect(kept.acts).toBe(false);
    const scaled = await explainPod(file('orphaned-pods'), { now: NOW, replicas: 1 }, 'orders-api-r2d9x', io);
    expect(scaled.acts).toBe(true);
    expect(scaled.explanation.deletion?.whatIf).not.toBeNull();
  });

  it('an orphan of a deleted owner: told, nothing acts', async () => {
    const s = await explainPod(file('orphaned-pods'), { now: NOW }, 'orders-worker-7c9d2-k4x8p', io);
    expect(s.explanation.orphan).not.toBeNull();
    expect(s.acts).toBe(false);
  });

  it('a pod not in the namespace asked for is not found', async () => {
    await expect(explainPod(file('orphaned-pods', { namespace: 'elsewhere' }), { now: NOW }, 'orders-api-z8m3p', io)).rejects.toThrow(
      'pods "orders-api-z8m3p" not found in elsewhere namespace',
    );
    await expect(explainPod(file('orphaned-pods'), { now: NOW }, 'no-such-pod', io)).rejects.toThrow('pods "no-such-pod" not found in the snapshot');
  });
});
