// The Deployments of a watch: each decided once per plan by the deployment controller's rules
// (decideDeployment), with its ReplicaSets' sizes and what the next sync does to each, for the
// dashboard's rows and detail and the plain stream. Nothing here decides anything of its own: the
// ReplicaSets shown are those the decision claims, and their next sizes are its actions.

import { namespaceOf } from '../../core/controller.js';
import { surgeWords, unavailableWords } from '../../core/deployment/arithmetic.js';
import { decideDeployment } from '../../core/deployment/controller.js';
import type { DeploymentDecision } from '../../core/deployment/types.js';
import type { Deployment, PodTemplateSpec, ReplicaSet, Snapshot } from '../../core/types.js';
import {
  deploymentReplicas,
  maxSurge,
  minAvailable,
  minReadySeconds,
  progressDeadlineSeconds,
  REASON,
  compareRevisions,
  revision,
  strategyType,
} from '../../core/deployment/util.js';
import { controllerRef } from '../../core/pod.js';
import { parseSelectorString } from '../../core/selector.js';
import type { Behaviour } from '../../core/versions.js';
import { UserError } from '../../errors.js';
import type { DeploymentReplicaSetView, DeploymentView } from './contract.js';
import type { WatchScope } from './scope.js';

/**
 * Which Deployments a watch shows: those of its namespace whose labels -l matches; with NAME
 * arguments, only those named deploy/NAME (none when only ReplicaSets are named), as diff does.
 */
export function deploymentScope(scope: WatchScope): (d: Deployment) => boolean {
  const parsed = scope.selector === undefined ? null : parseSelectorString(scope.selector);
  if (parsed && !parsed.ok) throw new UserError(parsed.error);
  const named = scope.targets.filter((t) => t.kind === 'Deployment').map((t) => t.name);
  const anyTargets = scope.targets.length > 0;
  return (d) => {
    if (scope.namespace !== null && (d.metadata.namespace ?? 'default') !== scope.namespace) return false;
    if (parsed?.ok && !parsed.selector.matches(d.metadata.labels)) return false;
    return !anyTargets || named.includes(d.metadata.name);
  };
}

export interface DeploymentViewOptions {
  nowMs: number;
  behaviour: Behaviour;
  include: (d: Deployment) => boolean;
}

/** The Deployments of the snapshot in scope, each decided from the whole namespace; null when they could not be read. */
export function deploymentViews(snapshot: Snapshot, o: DeploymentViewOptions): DeploymentView[] | null {
  if (snapshot.deployments === null) return null;
  const out: DeploymentView[] = [];
  const shown = (snapshot.deployments ?? []).filter(o.include);
  if (shown.length === 0) return out;
  const rss = byNamespace(snapshot.controllers.ReplicaSet ?? []);
  const pods = byNamespace(snapshot.pods);
  for (const d of shown) {
    const ns = d.metadata.namespace ?? 'default';
    const inNamespace = rss.get(ns) ?? [];
    const decision = decideDeployment({ deployment: d, replicaSets: inNamespace, pods: pods.get(ns) ?? [], nowMs: o.nowMs, behaviour: o.behaviour });
    out.push(viewOf(d, decision, inNamespace));
  }
  return out.sort((a, b) => compare(a.decision.namespace, b.decision.namespace) || compare(a.decision.name, b.decision.name));
}

function byNamespace<T extends { metadata: { namespace?: string } }>(xs: readonly T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const ns = namespaceOf(x);
    const list = m.get(ns);
    if (list) list.push(x);
    else m.set(ns, [x]);
  }
  return m;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function viewOf(d: Deployment, decision: DeploymentDecision, inNamespace: readonly ReplicaSet[]): DeploymentView {
  const progressing = decision.status.conditions.find((c) => c.type === 'Progressing');
  return {
    decision,
    replicas: deploymentReplicas(d),
    arithmetic: arithmeticLines(d),
    replicaSets: replicaSetViews(d, decision, inNamespace),
    deadlineExceeded: progressing?.status === 'False' && progressing.reason === REASON.TimedOut,
  };
}

/** The strategy's numbers in words, as the decisions' messages say them. */
function arithmeticLines(d: Deployment): string[] {
  const lines: string[] = [];
  const type = strategyType(d);
  if (type === 'RollingUpdate') {
    const replicas = deploymentReplicas(d);
    lines.push(surgeWords(d), unavailableWords(d), `so at most ${replicas + maxSurge(d)} pods, at least ${minAvailable(d)} available`);
  } else if (type === 'Recreate') lines.push('Recreate: every old pod is gone before the new ReplicaSet is scaled up');
  else lines.push(`strategy type ${JSON.stringify(type)}: neither Recreate nor RollingUpdate`);
  const ready = minReadySeconds(d);
  if (ready > 0) lines.push(`minReadySeconds ${ready}: a pod counts as available ${ready}s after it is ready`);
  const deadline = progressDeadlineSeconds(d);
  if (deadline !== null) lines.push(`progressDeadlineSeconds ${deadline}`);
  return lines;
}

/** The ReplicaSets the decision claims (owned, less those it releases, plus those it adopts), and the one it creates. */
function replicaSetViews(d: Deployment, decision: DeploymentDecision, inNamespace: readonly ReplicaSet[]): DeploymentReplicaSetView[] {
  const released = new Set(decision.writes.flatMap((w) => (w.kind === 'releaseReplicaSet' ? [w.name] : [])));
  const adopted = new Set(decision.writes.flatMap((w) => (w.kind === 'adoptReplicaSet' ? [w.name] : [])));
  const claimed = inNamespace.filter((rs) =>
    adopted.has(rs.metadata.name) ? true : controllerRef(rs)?.uid === decision.uid && !released.has(rs.metadata.name),
  );
  const next = new Map<string, number | 'delete'>();
  const views: DeploymentReplicaSetView[] = [];
  for (const a of decision.actions) {
    if (a.verb === 'scale') next.set(a.replicaSet, a.to);
    else if (a.verb === 'delete') next.set(a.replicaSet, 'delete');
    else
      views.push({
        name: a.replicaSet,
        revision: null,
        role: 'new',
        images: imagesOf(d.spec.template),
        desired: null,
        current: 0,
        ready: 0,
        available: 0,
        next: a.replicas,
      });
  }
  for (const rs of claimed) {
    views.push({
      name: rs.metadata.name,
      revision: revisionText(rs),
      role: rs.metadata.name === decision.newReplicaSet ? 'new' : 'old',
      images: imagesOf(rs.spec.template),
      desired: rs.spec.replicas ?? 1,
      current: rs.status?.replicas ?? 0,
      ready: rs.status?.readyReplicas ?? 0,
      available: rs.status?.availableReplicas ?? 0,
      next: next.get(rs.metadata.name) ?? null,
    });
  }
  return views.sort(
    (a, b) =>
      (a.role === 'new' ? 0 : 1) - (b.role === 'new' ? 0 : 1) ||
      compareRevisions(b.revision === null ? null : BigInt(b.revision), a.revision === null ? null : BigInt(a.revision)) ||
      compare(a.name ?? '', b.name ?? ''),
  );
}

function imagesOf(template: PodTemplateSpec | undefined): string[] {
  return (template?.spec?.containers ?? []).flatMap((c) => (c.image ? [c.image] : []));
}

/** The revision annotation as the int64 it is, in decimal; null when it is not one. */
function revisionText(rs: ReplicaSet): string | null {
  const r = revision(rs);
  return r === null ? null : String(r);
}
