// deployment_controller.go: syncDeployment, the one decision of one sync of a Deployment. It
// claims the ReplicaSets (getReplicaSetsForDeployment), then: a Deployment being deleted gets its
// status only; a paused one, or a scaling event, is resized (sync); else its strategy rolls it out.
// Every command reads this decision; `run` only carries out its writes.

import { controllerRef } from '../pod.js';
import { labelSelectorAsSelector } from '../selector.js';
import type { Pod, ReplicaSet, Deployment, DeploymentStatus } from '../types.js';
import type { PodMap } from './recreate.js';
import { rolloutRecreate } from './recreate.js';
import { rolloutRolling } from './rolling.js';
import { SyncError, SyncRun, clone } from './sync-run.js';
import { rollback } from './rollback.js';
import { checkPausedConditions, isScalingEvent, sortedByCreation, sync, syncStatusOnly } from './sync.js';
import type { DeploymentDecision, DeploymentStatusOut, DeploymentSyncInput } from './types.js';
import { findNewReplicaSet, rollbackTo, strategyType } from './util.js';

/** The Deployment a decision is about, as read before its sync. */
type DeploymentIdentity = Pick<DeploymentDecision, 'namespace' | 'name' | 'uid' | 'strategy' | 'paused'>;

/** What one sync chose, filled in as it goes: a SyncError thrown midway keeps what was chosen before it. */
interface SyncPath {
  path: DeploymentDecision['path'] | undefined;
  skip: DeploymentDecision['skip'];
  requeue: number | null;
  error: string | null;
  claimed: ReplicaSet[];
}

/** The decision of one syncDeployment of `input.deployment`, at `input.nowMs`, as `input.behaviour`'s minor. */
export function decideDeployment(input: DeploymentSyncInput): DeploymentDecision {
  const d: Deployment = clone(input.deployment);
  d.status ??= {};
  const run = new SyncRun(d, input.replicaSets, input.nowMs, input.behaviour);
  // read before the sync: what the Deployment is, as the decision names it
  const type = strategyType(d);
  const identity: DeploymentIdentity = {
    namespace: d.metadata.namespace ?? 'default',
    name: d.metadata.name,
    uid: d.metadata.uid,
    strategy: type === 'Recreate' ? 'Recreate' : 'RollingUpdate',
    paused: d.spec.paused === true,
  };
  const chosen: SyncPath = { path: undefined, skip: null, requeue: null, error: null, claimed: [] };
  try {
    syncDeployment(run, input, type, chosen);
  } catch (e) {
    if (!(e instanceof SyncError)) throw e;
    chosen.error = e.message;
    chosen.requeue = 0;
    chosen.path ??= 'unsupported';
  }
  return assembleDecision(input, run, identity, chosen);
}

/** syncDeployment: the selector checked, the ReplicaSets claimed, then the path of a claimed sync. */
function syncDeployment(run: SyncRun, input: DeploymentSyncInput, type: string, chosen: SyncPath): void {
  const d = run.d;
  const status = d.status ?? {};
  const sel = d.spec.selector;
  if (sel === undefined || sel === null) {
    // the API server refuses a Deployment without one (validation: spec.selector Required)
    chosen.path = 'invalid-selector';
    chosen.skip = { reason: 'InvalidSelector', message: 'spec.selector: Required value (the API server refuses such a Deployment)' };
    return;
  }
  if ((sel.matchLabels === undefined || sel.matchLabels === null) && (sel.matchExpressions === undefined || sel.matchExpressions === null)) {
    chosen.path = 'empty-selector';
    chosen.skip = { reason: 'EmptySelector', message: 'This deployment is selecting all pods. A non-empty selector is required.' };
    if ((status.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
      status.observedGeneration = d.metadata.generation ?? 0;
      run.updateStatus(status);
    }
    return;
  }
  const parsed = labelSelectorAsSelector(sel);
  if (!parsed.ok) {
    chosen.path = 'invalid-selector';
    chosen.skip = { reason: 'InvalidSelector', message: `invalid label selector: ${parsed.error}` };
    throw new SyncError(chosen.skip.message);
  }
  const matches = (labels: Record<string, string> | null | undefined) => parsed.selector.matches(labels);
  chosen.claimed = sortedByCreation(claimReplicaSets(run, input.replicaSets, matches));
  const podMap = podMapFor(d, chosen.claimed, input.pods, input.behaviour.deploymentPodMap === 'owner-index' ? null : matches);
  syncClaimed(run, podMap, type, chosen);
}

/** The path of a sync with its ReplicaSets claimed: deleting, paused, scaling, or the strategy's rollout. */
function syncClaimed(run: SyncRun, podMap: PodMap, type: string, chosen: SyncPath): void {
  const d = run.d;
  const claimed = chosen.claimed;
  if (d.metadata.deletionTimestamp) {
    chosen.path = 'deleting';
    chosen.skip = {
      reason: 'DeploymentDeleting',
      message: `the Deployment is being deleted (deletionTimestamp ${d.metadata.deletionTimestamp}): its status is written, nothing else`,
    };
    syncStatusOnly(run, claimed);
    return;
  }
  checkPausedConditions(run);
  const asked = rollbackTo(d);
  if (d.spec.paused) {
    chosen.path = 'paused';
    sync(run, claimed);
  } else if (asked !== null) {
    chosen.path = 'rollback';
    rollback(run, claimed, asked);
  } else if (isScalingEvent(run, claimed)) {
    chosen.path = 'scaling';
    sync(run, claimed);
  } else if (type === 'Recreate') {
    chosen.path = 'recreate';
    chosen.requeue = rolloutRecreate(run, claimed, podMap);
  } else if (type === 'RollingUpdate') {
    chosen.path = 'rolling';
    chosen.requeue = rolloutRolling(run, claimed);
  } else {
    // the API server's validation refuses such a type; a sync that meets one ends with this error
    chosen.path = 'unsupported';
    throw new SyncError(`unexpected deployment strategy type: ${type}`);
  }
}

/** The decision from the sync's run: its writes, the status it wrote (else the one read), and the new ReplicaSet. */
function assembleDecision(input: DeploymentSyncInput, run: SyncRun, identity: DeploymentIdentity, chosen: SyncPath): DeploymentDecision {
  const d = run.d;
  const written = run.firstStatus;
  const creates = run.writes.some((w) => w.kind === 'createReplicaSet');
  const newRS = creates ? null : (findNewReplicaSet(d, chosen.claimed)?.metadata.name ?? null);
  return {
    ...identity,
    inSync: run.writes.length === 0,
    skip: chosen.skip,
    newReplicaSet: newRS,
    actions: run.actions,
    status: statusOut(written ?? input.deployment.status ?? {}, input.behaviour.gates.DeploymentReplicaSetTerminatingReplicas),
    statusChanged: written !== null,
    requeueAfterSeconds: chosen.requeue,
    writes: run.writes,
    notes: run.notes,
    error: chosen.error,
    path: chosen.path ?? 'unsupported',
  };
}

/**
 * ClaimReplicaSets: owned and matching are kept; owned and not matching released (unless the
 * Deployment is being deleted); orphans matching adopted (unless either is being deleted).
 */
function claimReplicaSets(run: SyncRun, rss: readonly ReplicaSet[], matches: (labels: Record<string, string> | null | undefined) => boolean): ReplicaSet[] {
  const d = run.d;
  const ns = d.metadata.namespace ?? 'default';
  const out: ReplicaSet[] = [];
  for (const rs of rss) {
    if ((rs.metadata.namespace ?? 'default') !== ns) continue;
    const ref = controllerRef(rs);
    if (ref) {
      if (ref.uid !== d.metadata.uid) continue;
      if (matches(rs.metadata.labels)) out.push(rs);
      else if (!d.metadata.deletionTimestamp) run.release(rs);
      continue;
    }
    if (d.metadata.deletionTimestamp || !matches(rs.metadata.labels) || rs.metadata.deletionTimestamp) continue;
    out.push(run.adopt(rs));
  }
  return out;
}

/**
 * getPodMapForDeployment: each claimed ReplicaSet's pods by its uid. With `matches` (to 1.35) the
 * pods the Deployment's selector matches, by their controller's uid; without (1.36+, the pod
 * controller index) the pods whose controller is that ReplicaSet by kind, name and uid, whatever
 * their labels.
 */
function podMapFor(
  d: Deployment,
  rss: readonly ReplicaSet[],
  pods: Pod[] | null,
  matches: ((labels: Record<string, string> | null | undefined) => boolean) | null,
): PodMap {
  if (!pods) return null;
  const map = new Map<string, Pod[]>(rss.map((rs) => [rs.metadata.uid, []]));
  const byUid = new Map(rss.map((rs) => [rs.metadata.uid, rs]));
  const ns = d.metadata.namespace ?? 'default';
  for (const p of pods) {
    if ((p.metadata.namespace ?? 'default') !== ns) continue;
    const ref = controllerRef(p);
    if (!ref) continue;
    if (matches) {
      if (matches(p.metadata.labels)) map.get(ref.uid)?.push(p);
      continue;
    }
    const owner = byUid.get(ref.uid);
    if (owner && ref.kind === 'ReplicaSet' && ref.name === owner.metadata.name) map.get(ref.uid)?.push(p);
  }
  return map;
}

function statusOut(s: DeploymentStatus, terminating: boolean): DeploymentStatusOut {
  const out: DeploymentStatusOut = {
    replicas: s.replicas ?? 0,
    updatedReplicas: s.updatedReplicas ?? 0,
    readyReplicas: s.readyReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
    unavailableReplicas: s.unavailableReplicas ?? 0,
    observedGeneration: s.observedGeneration ?? 0,
    collisionCount: s.collisionCount ?? null,
    conditions: (s.conditions ?? []).map((c) => ({ ...c })),
  };
  if (terminating && s.terminatingReplicas !== undefined && s.terminatingReplicas !== null) out.terminatingReplicas = s.terminatingReplicas;
  return out;
}
