import { describe, expect, it, vi } from 'vitest';
import { ClusterPlanner } from '../../../src/core/plan.js';
import { UserError } from '../../../src/errors.js';
import { planFrame } from '../../../src/services/watch/frame.js';
import { scopePredicate } from '../../../src/services/watch/scope.js';
import { behaviour, frameOf, loadExamples, NOW_MS } from '../../ui/fixtures.js';

describe('scope and plans', () => {
  it('scopePredicate: namespace, -l on the controllers, names (rs/ and rc/)', async () => {
    const snap = await loadExamples('drifted-replicaset', 'replication-controller', 'deployment-rollout');
    const shown = (scope: Parameters<typeof scopePredicate>[0]) => frameOf(snap, { scope }).plan.controllers.map((c) => `${c.kind}/${c.namespace}/${c.name}`);
    expect(shown({ namespace: null, targets: [] })).toHaveLength(4);
    expect(shown({ namespace: 'legacy', targets: [] })).toEqual(['ReplicationController/legacy/legacy-db']);
    expect(shown({ namespace: null, targets: [{ kind: null, name: 'shop-web' }] })).toEqual(['ReplicaSet/shop/shop-web']);
    expect(shown({ namespace: null, targets: [{ kind: 'ReplicationController', name: 'shop-web' }] })).toEqual([]);
    expect(shown({ namespace: null, selector: 'app=checkout', targets: [] })).toEqual(['ReplicaSet/shop/checkout-6b8d', 'ReplicaSet/shop/checkout-9c2f']);
    expect(() => scopePredicate({ namespace: null, selector: 'app in (', targets: [] })).toThrow(UserError);
  });

  it('planFrame: counts pods in scope, caches explain models, and checks names on the first plan', async () => {
    const snap = await loadExamples('drifted-replicaset', 'scale-down-ranking');
    const frame = planFrame(snap, { behaviour, nowMs: NOW_MS, at: 123, source: 'file', scope: { namespace: 'search', targets: [] } });
    expect(frame.at).toBe(123);
    expect(frame.pods).toBe(9);
    expect(frame.plan.controllers.map((c) => c.name)).toEqual(['search-5f7c9']);
    const c = frame.plan.controllers[0];
    const model = frame.explain(c);
    expect(model?.pods).toHaveLength(9);
    expect(model?.pods.filter((p) => p.deleteIndex !== null)).toHaveLength(6);
    expect(frame.explain(c)).toBe(model);
    expect(frame.explain({ ...c, name: 'nope' })).toBeNull();
    expect(() =>
      planFrame(snap, {
        behaviour,
        nowMs: NOW_MS,
        at: 0,
        source: 'file',
        scope: { namespace: null, targets: [{ kind: null, name: 'nope' }] },
        strictTargets: true,
      }),
    ).toThrow(/replicasets.apps "nope" not found in the snapshot/);
  });

  it('the detail tells the decision of the plan the list shows: the rules run once per controller and plan', async () => {
    const snap = await loadExamples('drifted-replicaset', 'scale-down-ranking', 'replication-controller');
    const decide = vi.spyOn(ClusterPlanner.prototype, 'planController');
    try {
      // the expectations change after the plan (a create observed): a second decision would no longer be held back
      let satisfied = false;
      const frame = planFrame(snap, {
        behaviour,
        nowMs: NOW_MS,
        at: 0,
        source: 'cluster',
        scope: { namespace: null, targets: [] },
        expectationsSatisfied: () => satisfied,
        expectationsPending: () => ({ add: 1, del: 0 }),
      });
      const entries = frame.plan.controllers;
      expect(entries.length).toBeGreaterThan(2);
      expect(decide).toHaveBeenCalledTimes(entries.length);
      satisfied = true;
      for (const c of entries) {
        const model = frame.explain(c);
        expect(model?.plan).toBe(c);
        expect(model?.pods.map((p) => p.name)).toEqual(c.pods.map((p) => p.name));
        expect(c.skip?.reason).toBe('ExpectationsPending');
      }
      expect(decide).toHaveBeenCalledTimes(entries.length);
    } finally {
      decide.mockRestore();
    }
  });
});
