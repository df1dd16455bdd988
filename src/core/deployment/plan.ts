// The `deployments` list of the plan (../shared/plan-format.md "Deployments"): one decision per
// Deployment of the input, sorted by namespace then name, as the contract prints it.

import type { Snapshot, Deployment } from '../types.js';
import type { Behaviour } from '../versions.js';
import { decideDeployment } from './controller.js';
import type { DeploymentDecision } from './types.js';

/** One entry of the plan's `deployments`: the decision without its request list. */
export type PlanDeployment = Omit<DeploymentDecision, 'writes' | 'path'>;

/** The plan's entry of a Deployment: its sync's decision as the contract prints it (the requests and the path left out). */
export function planDeploymentOf(decision: DeploymentDecision): PlanDeployment {
  const { writes: _w, path: _p, ...entry } = decision;
  return entry;
}

export interface DeploymentPlanOptions {
  nowMs: number;
  behaviour: Behaviour;
  /** Which Deployments to report (all by default); every one is decided from the whole input. */
  include?: (d: Deployment) => boolean;
}

/** The decisions of the snapshot's Deployments; null when they are not known (not readable). */
export function planDeployments(snapshot: Snapshot, opts: DeploymentPlanOptions): PlanDeployment[] | null {
  if (snapshot.deployments === null || snapshot.deployments === undefined) return null;
  const rss = byNamespace(snapshot.controllers.ReplicaSet ?? []);
  const pods = byNamespace(snapshot.pods);
  const out: PlanDeployment[] = [];
  for (const d of snapshot.deployments) {
    if (opts.include && !opts.include(d)) continue;
    const ns = d.metadata.namespace ?? 'default';
    const decision = decideDeployment({
      deployment: d,
      replicaSets: rss.get(ns) ?? [],
      pods: pods.get(ns) ?? [],
      nowMs: opts.nowMs,
      behaviour: opts.behaviour,
    });
    out.push(planDeploymentOf(decision));
  }
  return out.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function byNamespace<T extends { metadata: { namespace?: string } }>(xs: readonly T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const ns = x.metadata.namespace ?? 'default';
    const list = m.get(ns);
    if (list) list.push(x);
    else m.set(ns, [x]);
  }
  return m;
}
