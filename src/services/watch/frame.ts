// One re-plan of a snapshot, as the dashboard receives it: the plan, what held-back controllers
// wait for, and explain models computed only when the detail pane asks for one. The rules run once
// per controller and plan: the detail tells the decision the list shows, never one of its own.

import { namespaceOf } from '../../core/controller.js';
import { buildExplainModel } from '../../core/explain.js';
import type { ExplainModel } from '../../core/explain-types.js';
import { ClusterPlanner } from '../../core/plan.js';
import type { PlanController } from '../../core/plan-types.js';
import type { Snapshot } from '../../core/types.js';
import type { Behaviour } from '../../core/versions.js';
import { selectControllers } from '../plan-service.js';
import type { AwaitedWrites, PlanFrame } from './contract.js';
import { deploymentScope, deploymentViews } from './deployments.js';
import { scopePredicate, type WatchScope } from './scope.js';
import { metaNamespaceKey } from '../../core/object-key.js';
import { entryKey } from '../../core/plan-compare.js';

export interface FrameOptions {
  behaviour: Behaviour;
  /** The evaluation time of this plan (--now, or the wall clock). */
  nowMs: number;
  /** Wall-clock time of the update. */
  at: number;
  source: 'file' | 'cluster';
  burstReplicas?: number;
  scope: WatchScope;
  /** Live reconcile: whether the controller's expectations for ns/name are satisfied. */
  expectationsSatisfied?: (key: string) => boolean;
  /** Live reconcile: the creates and deletes still expected for ns/name (what a skipped controller waits for). */
  expectationsPending?: (key: string) => { add: number; del: number };
  /** Throw (like `diff NAME`) when a named controller is not in scope. */
  strictTargets?: boolean;
}

/** Plans a snapshot: one PlanFrame, with explain models computed on demand and cached. */
export function planFrame(snapshot: Snapshot, o: FrameOptions): PlanFrame {
  const include = scopePredicate(o.scope);
  const planner = new ClusterPlanner(snapshot, {
    now: o.nowMs,
    behaviour: o.behaviour,
    source: o.source,
    burstReplicas: o.burstReplicas,
    include,
    expectationsSatisfied: o.expectationsSatisfied,
  });
  if (o.strictTargets && o.scope.targets.length > 0) {
    selectControllers(
      planner,
      { namespace: o.scope.namespace ?? undefined, allNamespaces: o.scope.namespace === null, selector: o.scope.selector, connection: {} },
      o.scope.targets,
      o.scope.namespace,
      o.source,
    );
  }
  const { plan, decisions } = planner.decideAll(true);
  // decideAll: decisions[i] is the decision of plan.controllers[i]
  const decided = new Map(plan.controllers.map((e, i) => [entryKey(e), decisions[i]]));
  let pods = 0;
  if (o.scope.namespace === null) pods = snapshot.pods.length;
  else for (const p of snapshot.pods) if (namespaceOf(p) === o.scope.namespace) pods++;
  const models = new Map<string, ExplainModel | null>();
  const waiting = new Map<string, AwaitedWrites>();
  for (const c of plan.controllers) {
    if (c.skip?.reason !== 'ExpectationsPending') continue;
    const e = o.expectationsPending?.(metaNamespaceKey(c.namespace, c.name)) ?? { add: 0, del: 0 };
    // both zero: the record went away between the plan and this look (say creates, the usual case)
    waiting.set(entryKey(c), e.add > 0 && e.del > 0 ? 'creates and deletes' : e.del > 0 ? 'deletes' : 'creates');
  }
  return {
    plan,
    waiting,
    at: o.at,
    pods,
    deployments: deploymentViews(snapshot, { nowMs: o.nowMs, behaviour: o.behaviour, include: deploymentScope(o.scope) }),
    explain(c: PlanController): ExplainModel | null {
      const key = entryKey(c);
      if (models.has(key)) return models.get(key)!;
      const decision = decided.get(key);
      const found = decision ? planner.find(c.kind, c.namespace, c.name)[0] : undefined;
      const model = decision && found ? buildExplainModel(planner, found, decision, c, o.behaviour.version) : null;
      models.set(key, model);
      return model;
    },
  };
}
