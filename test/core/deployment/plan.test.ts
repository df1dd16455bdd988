// The plan's `deployments` (src/core/deployment/plan.ts): each entry is the projection of its
// Deployment's one decision (planDeploymentOf), the requests and the path left out.
import { describe, expect, it } from 'vitest';
import { planDeploymentOf, planDeployments } from '../../../src/core/deployment/plan.js';
import { bh, decide, deploy, NOW, rs } from './helpers.js';

describe('planDeploymentOf', () => {
  it('is the decision without its writes and path, every other field as decided', () => {
    const d = deploy({ replicas: 3 });
    const rss = [rs({ name: 'web-old', replicas: 3, image: 'nginx:1.26', revision: 1 })];
    const decision = decide(d, rss);
    expect(decision.writes.length).toBeGreaterThan(0);
    const entry = planDeploymentOf(decision);
    expect(Object.keys(entry)).not.toContain('writes');
    expect(Object.keys(entry)).not.toContain('path');
    const { writes: _w, path: _p, ...rest } = decision;
    expect(entry).toEqual(rest);
  });

  it('planDeployments lists the projections of the decisions, by namespace and name', () => {
    const a = deploy({ name: 'web' });
    const rss = [rs({ name: 'web-a', replicas: 3, revision: 1 })];
    const plan = planDeployments(
      { controllers: { ReplicaSet: rss, ReplicationController: [] }, pods: [], deployments: [a] },
      { nowMs: NOW, behaviour: bh(35) },
    );
    expect(plan).toEqual([planDeploymentOf(decide(a, rss, { pods: [] }))]);
  });
});
