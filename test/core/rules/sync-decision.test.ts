// The one decision of a sync (src/core/sync-decision.ts) and the plan's entry as its projection:
// the plan's entries are the kept decisions' projections, in order; a decision redone after the
// claims (afterClaims) keeps its advisories (src/core/plan-warnings.ts) and recounts only
// manageReplicas' own warnings; the advisories and those warnings are computed apart.
import { describe, expect, it } from 'vitest';
import { fromReplicaSet } from '../../../src/core/controller.js';
import { ClusterPlanner, type PlanOptions } from '../../../src/core/plan.js';
import { advisoriesOf, manageWarnings } from '../../../src/core/plan-warnings.js';
import { deletesOf, isInSync, managesReplicas, planControllerOf } from '../../../src/core/sync-decision.js';
import type { Snapshot } from '../../../src/core/types.js';
import { bh, NOW, pod, rs, snap } from './helpers.js';

const planner = (s: Snapshot, o: Partial<PlanOptions> = {}) => new ClusterPlanner(s, { now: NOW, behaviour: bh(35), source: 'file', ...o });
const codes = (ws: { code: string }[]) => ws.map((w) => w.code);

describe('the plan entry: a projection of the decision', () => {
  it('decideAll keeps the decisions in the order of the plan, each entry its projection', () => {
    const web = rs({ name: 'web', replicas: 1 });
    const bad = rs({ name: 'bad', selector: { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['x'] }] } });
    const db = rs({ name: 'db', replicas: 3, selector: { matchLabels: { app: 'db' } }, templateLabels: { app: 'db' } });
    const pods = [
      pod({ name: 'w1', owner: web.metadata.uid }),
      pod({ name: 'w2', owner: web.metadata.uid }),
      pod({ name: 'orphan-db', labels: { app: 'db' } }),
    ];
    const { plan, decisions } = planner(snap({ replicaSets: [web, bad, db], pods })).decideAll(true);
    expect(decisions.map((d) => d.controller.metadata.name)).toEqual(plan.controllers.map((e) => e.name));
    expect(decisions.map(planControllerOf)).toEqual(plan.controllers);
    const [b, d, w] = decisions;
    expect(b.skip?.reason).toBe('InvalidSelector');
    expect([isInSync(b), managesReplicas(b)]).toEqual([false, false]);
    expect(d.claims.map((c) => c.decision)).toEqual(['adopt']);
    expect(isInSync(d)).toBe(false);
    expect(deletesOf(w).map((x) => x.name)).toHaveLength(1);
    expect(plan.controllers[2].delete).toEqual(deletesOf(w));
  });

  it('without keep, the plan is the same and no decision is held', () => {
    const s = snap({ replicaSets: [rs({ replicas: 2 })], pods: [pod({ name: 'a' })] });
    const kept = planner(s).decideAll(true);
    const bare = planner(s).decideAll(false);
    expect(bare.decisions).toEqual([]);
    expect(bare.plan).toEqual(kept.plan);
  });
});

describe('advisories and manageReplicas warnings', () => {
  // two ReplicaSets select one orphan: both would adopt it (ContestedAdoption, OverlappingSelectors)
  const web = rs({ name: 'web', replicas: 5 });
  const other = rs({ name: 'other', replicas: 0 });
  const s = snap({ replicaSets: [web, other], pods: [pod({ name: 'orphan' })] });

  it('the advisories come first, then the burst cap of the claimed count', () => {
    const p = planner(s, { burstReplicas: 2 });
    const d = p.planController(p.find('ReplicaSet', 'default', 'web')[0]);
    expect(codes(d.warnings)).toEqual(['OverlappingSelectors', 'ContestedAdoption', 'BurstCapped']);
    expect(d.warnings[2].message).toContain('4 pods are missing');
  });

  it('afterClaims keeps the advisories and counts the burst cap once, on the pods the claims left', () => {
    const p = planner(s, { burstReplicas: 2 });
    const d = p.planController(p.find('ReplicaSet', 'default', 'web')[0]);
    const again = p.afterClaims(d, []); // the adoption failed: the orphan is not counted
    expect(again).not.toBe(d);
    expect(codes(again.warnings)).toEqual(['OverlappingSelectors', 'ContestedAdoption', 'BurstCapped']);
    expect(again.warnings[2].message).toContain('5 pods are missing');
    expect(again.currentReplicas).toBe(0);
    expect(planControllerOf(again).replicas).toEqual({ desired: 5, current: 0 });
  });

  it('a skipped sync (the controller being deleted) has its advisories and no manageReplicas warning', () => {
    const deleting = rs({ name: 'web', replicas: 5, deleting: true });
    const p = planner(snap({ replicaSets: [deleting, other], pods: [pod({ name: 'orphan' })] }), { burstReplicas: 2 });
    const d = p.planController(p.find('ReplicaSet', 'default', 'web')[0]);
    expect(d.skip?.reason).toBe('ControllerDeleting');
    expect(codes(d.warnings)).toEqual(['OverlappingSelectors']);
  });

  it('warnings: false leaves the advisories out, never manageReplicas’ own', () => {
    const p = planner(s, { burstReplicas: 2, warnings: false });
    const d = p.planController(p.find('ReplicaSet', 'default', 'web')[0]);
    expect(codes(d.warnings)).toEqual(['BurstCapped']);
  });

  it('manageWarnings: the cap both ways, a template without labels; advisoriesOf drops exactly those', () => {
    const c = fromReplicaSet(rs({ replicas: 10, templateLabels: null }));
    expect(codes(manageWarnings(c, 4, 500))).toEqual(['NoTemplateLabels']);
    expect(codes(manageWarnings(c, 4, 3))).toEqual(['BurstCapped', 'NoTemplateLabels']);
    expect(codes(manageWarnings(c, 14, 4))).toEqual([]); // 4 surplus, 4 a sync: not capped
    expect(manageWarnings(c, 14, 3)[0].message).toBe('4 pods are surplus but one sync deletes at most 3 (burst replicas); the rest follow in later syncs');
    expect(codes(manageWarnings(c, 10, 1))).toEqual([]);
    const all = [...manageWarnings(c, 4, 3), { code: 'OwnerNotFound' as const, message: 'x' }];
    expect(codes(advisoriesOf(all))).toEqual(['OwnerNotFound']);
  });
});
