// `explain deploy/NAME`: the Deployment as a tree (Deployment → its ReplicaSets, new and old →
// their pods with what the sync does to each), from the explain models of its ReplicaSets. The
// Deployment object itself is not read: its uid comes from the owner references, and which
// ReplicaSet is the new one from the revision the Deployment controller writes on each.

import { compareRevisions, parseInt64, REVISION_ANNOTATION, type Revision } from './deployment/util.js';
import type { ExplainModel, PodOutcome } from './explain-types.js';
import type { PlanController } from './plan-types.js';

interface DeploymentTreePod {
  name: string;
  outcome: PodOutcome;
  /** 1-based place in the deletion order, null when the sync does not delete it. */
  order: number | null;
  /** The deletion reason when deleted, else the claim reason. */
  reason: string;
}

export interface DeploymentTreeReplicaSet {
  name: string;
  revision: Revision | null;
  /** new: the highest revision of its Deployment; old: a lower one; null: no revision to tell. */
  role: 'new' | 'old' | null;
  plan: PlanController;
  pods: DeploymentTreePod[];
}

export interface DeploymentTree {
  namespace: string;
  name: string;
  uid: string;
  replicaSets: DeploymentTreeReplicaSet[]; // new first, then by revision, newest first
}

/** "3" → 3n (an int64, as upstream reads it); absent, or not an int64 → null. */
function revisionOf(annotations: Record<string, string> | null | undefined): Revision | null {
  const raw = annotations?.[REVISION_ANNOTATION];
  return raw === undefined ? null : parseInt64(raw);
}

/**
 * One tree per Deployment uid (a re-created Deployment's leftovers are another tree). `models`
 * are the explain models of the ReplicaSets, with their annotations and controller owner.
 */
export function buildDeploymentTrees(
  name: string,
  items: { model: ExplainModel; annotations: Record<string, string> | null | undefined; ownerUid: string }[],
): DeploymentTree[] {
  const byUid = new Map<string, DeploymentTree>();
  for (const { model, annotations, ownerUid } of items) {
    let tree = byUid.get(ownerUid);
    if (!tree) byUid.set(ownerUid, (tree = { namespace: model.namespace, name, uid: ownerUid, replicaSets: [] }));
    tree.replicaSets.push({ name: model.name, revision: revisionOf(annotations), role: null, plan: model.plan, pods: treePods(model) });
  }
  for (const tree of byUid.values()) {
    tree.replicaSets.sort((a, b) => compareRevisions(b.revision, a.revision) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // new only when one ReplicaSet alone carries the highest revision
    const newest = tree.replicaSets[0]?.revision ?? null;
    const unique = newest !== null && tree.replicaSets.filter((r) => r.revision === newest).length === 1;
    for (const r of tree.replicaSets) if (unique && r.revision !== null) r.role = r.revision === newest ? 'new' : 'old';
  }
  return [...byUid.values()];
}

/** The pods a ReplicaSet keeps, adopts, releases or deletes (those it ignores belong elsewhere). */
function treePods(model: ExplainModel): DeploymentTreePod[] {
  const deleted = new Map(model.plan.delete.map((d, i) => [d.uid, { order: i + 1, reason: d.reason }]));
  return model.pods
    .filter((p) => p.decision !== 'ignore')
    .map((p) => {
      const d = deleted.get(p.uid);
      return { name: p.name, outcome: p.outcome, order: d?.order ?? null, reason: d?.reason ?? p.reason };
    });
}
