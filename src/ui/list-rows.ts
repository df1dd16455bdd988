// The lines of the list view: each Deployment in scope with its ReplicaSets under it, then the
// controllers (ReplicaSets and ReplicationControllers, as the ReplicaSet controller plans them).
// Every line is a row the cursor can stand on: a Deployment's (Enter: its detail), one of its
// ReplicaSets' (Enter: that ReplicaSet's detail, when it is in scope), or a controller's.

import { metaNamespaceKey } from '../core/object-key.js';
import { entryKey } from '../core/plan-compare.js';
import type { PlanController } from '../core/plan-types.js';
import type { DeploymentView, PlanFrame } from '../services/watch/contract.js';

/** How the list is sorted (the `s` key cycles through them). */
export type SortKey = 'name' | 'drift' | 'desired';

export type ListRow =
  | { type: 'controller'; index: number }
  | { type: 'deployment'; index: number }
  /** replicaSets[index] of deployments[deployment]. */
  | { type: 'replicaSet'; deployment: number; index: number };

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareDeployments(a: DeploymentView, b: DeploymentView): number {
  return compare(a.decision.namespace, b.decision.namespace) || compare(a.decision.name, b.decision.name);
}

/** Drift first: a Deployment whose next sync writes something (or that is skipped) before one in sync. */
function driftRank(v: DeploymentView): number {
  return v.decision.skip === null && !v.decision.inSync ? 0 : v.decision.skip !== null ? 1 : 2;
}

/** The Deployments shown, in order: those whose namespace/name, or one of whose ReplicaSets' names, contains the filter. */
function orderDeployments(deployments: readonly DeploymentView[], filter: string, sort: SortKey): number[] {
  const needle = filter.trim().toLowerCase();
  const hit = (ns: string, name: string | null) => name !== null && `${ns}/${name}`.toLowerCase().includes(needle);
  const idx: number[] = [];
  deployments.forEach((v, i) => {
    const ns = v.decision.namespace;
    if (needle === '' || hit(ns, v.decision.name) || v.replicaSets.some((rs) => hit(ns, rs.name))) idx.push(i);
  });
  const cmp =
    sort === 'name'
      ? compareDeployments
      : sort === 'drift'
        ? (a: DeploymentView, b: DeploymentView) => driftRank(a) - driftRank(b) || compareDeployments(a, b)
        : (a: DeploymentView, b: DeploymentView) => b.replicas - a.replicas || compareDeployments(a, b);
  return idx.sort((i, j) => cmp(deployments[i], deployments[j]));
}

/** The rows of the list: the Deployments (each followed by its ReplicaSets), then the controllers of `order`. */
export function listRowsOf(frame: PlanFrame, order: readonly number[], filter: string, sort: SortKey): ListRow[] {
  const rows: ListRow[] = [];
  const deployments = frame.deployments ?? [];
  for (const d of orderDeployments(deployments, filter, sort)) {
    rows.push({ type: 'deployment', index: d });
    deployments[d].replicaSets.forEach((_, i) => {
      rows.push({ type: 'replicaSet', deployment: d, index: i });
    });
  }
  for (const index of order) rows.push({ type: 'controller', index });
  return rows;
}

const byKeyCache = new WeakMap<readonly PlanController[], Map<string, number>>();

/** The plan entry of a ReplicaSet by namespace and name (null when it is not in scope), indexed once per plan. */
function planReplicaSet(frame: PlanFrame, namespace: string, name: string): PlanController | null {
  const cs = frame.plan.controllers;
  let byKey = byKeyCache.get(cs);
  if (!byKey) {
    byKey = new Map();
    cs.forEach((c, i) => {
      if (c.kind === 'ReplicaSet') byKey?.set(metaNamespaceKey(c.namespace, c.name), i);
    });
    byKeyCache.set(cs, byKey);
  }
  const i = byKey.get(metaNamespaceKey(namespace, name));
  return i === undefined ? null : cs[i];
}

/** The controller a row stands for: its own, or a Deployment's ReplicaSet when it is in scope; null for a Deployment. */
export function rowController(frame: PlanFrame, row: ListRow): PlanController | null {
  if (row.type === 'controller') return frame.plan.controllers[row.index] ?? null;
  if (row.type === 'deployment') return null;
  const v = frame.deployments?.[row.deployment];
  const rs = v?.replicaSets[row.index];
  return v && rs?.name ? planReplicaSet(frame, v.decision.namespace, rs.name) : null;
}

/** The Deployment a row belongs to (its own row, or one of its ReplicaSets'); null for a controller. */
export function rowDeployment(frame: PlanFrame, row: ListRow): DeploymentView | null {
  if (row.type === 'controller') return null;
  return frame.deployments?.[row.type === 'deployment' ? row.index : row.deployment] ?? null;
}

/** `Deployment/ns/name`: the key of a Deployment (for the history pane, it has no writes there). */
export function deploymentKeyOf(v: DeploymentView): string {
  return entryKey({ kind: 'Deployment', namespace: v.decision.namespace, name: v.decision.name });
}

/** What keeps the cursor on the same row across plans: a controller's key, a Deployment's, or a Deployment's with its ReplicaSet's name. */
export function rowKey(frame: PlanFrame, row: ListRow): string {
  if (row.type === 'controller') {
    return entryKey(frame.plan.controllers[row.index]);
  }
  const v = rowDeployment(frame, row);
  if (!v) return '';
  const key = deploymentKeyOf(v);
  return row.type === 'deployment' ? key : `${key}/${v.replicaSets[row.index]?.name ?? '(new)'}`;
}
