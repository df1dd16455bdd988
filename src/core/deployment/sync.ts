// sync.go: getAllReplicaSetsAndSyncRevision and getNewReplicaSet (the new ReplicaSet found by
// template or created, revisions), isScalingEvent, scale (proportional scaling), sync (paused and
// scaling events), cleanupDeployment (revisionHistoryLimit), calculateStatus and
// syncDeploymentStatus, and checkPausedConditions.

import type { DeploymentCondition, DeploymentStatus, ReplicaSet } from '../types.js';
import { plural, surgeWords } from './arithmetic.js';
import { clone, SyncError, type SyncRun } from './sync-run.js';
import {
  actualReplicaCount,
  availableReplicaCount,
  byCreationTimestamp,
  byRevision,
  bySizeNewer,
  bySizeOlder,
  DESIRED_REPLICAS_ANNOTATION,
  deploymentReplicas,
  filterActive,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  getCondition,
  getProportion,
  hasProgressDeadline,
  isRollingUpdate,
  isSaturated,
  maxReplicasBeforeScale,
  maxRevision,
  nextRevision,
  maxSurge,
  maxUnavailable,
  minReadySeconds,
  newCondition,
  newRSNewReplicas,
  POD_TEMPLATE_HASH_LABEL,
  REASON,
  REVISION_ANNOTATION,
  readyReplicaCount,
  replicasAnnotation,
  replicaCount,
  revision,
  revisionHistoryLimit,
  rollbackTo,
  rsReplicas,
  setCondition,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  terminatingReplicaCount,
} from './util.js';

export interface AllReplicaSets {
  newRS: ReplicaSet | null;
  /** Every old ReplicaSet (also those scaled to 0), in the claimed list's order. */
  oldRSs: ReplicaSet[];
}

/**
 * getAllReplicaSetsAndSyncRevision: the new ReplicaSet (its revision raised above every old one,
 * created when `create` and there is none) and the old ones. `rsList` is sorted by creation.
 */
export function getAllReplicaSetsAndSyncRevision(run: SyncRun, rsList: readonly ReplicaSet[], create: boolean): AllReplicaSets {
  const { all } = findOldReplicaSets(run.d, rsList);
  const newRS = getNewReplicaSet(run, rsList, all, create);
  return { newRS, oldRSs: all };
}

/** getNewReplicaSet: see getAllReplicaSetsAndSyncRevision. */
function getNewReplicaSet(run: SyncRun, rsList: readonly ReplicaSet[], oldRSs: readonly ReplicaSet[], create: boolean): ReplicaSet | null {
  const d = run.d;
  const existing = findNewReplicaSet(d, rsList);
  const maxOldRevision = maxRevision(oldRSs);
  const newRevision = nextRevision(maxOldRevision);
  const status = (d.status ??= {});
  if (existing) {
    const annotations = { ...(existing.metadata.annotations ?? {}) };
    const before = existing.metadata.annotations?.[REVISION_ANNOTATION];
    const annotationsUpdated = setNewReplicaSetAnnotations(d, annotations, newRevision, true);
    const minReadyNeedsUpdate = (existing.spec.minReadySeconds ?? 0) !== minReadySeconds(d);
    if (annotationsUpdated || minReadyNeedsUpdate) {
      const copy = clone(existing);
      copy.metadata.annotations = annotations;
      copy.spec.minReadySeconds = minReadySeconds(d);
      const after = annotations[REVISION_ANNOTATION];
      if (before !== undefined && before !== after)
        run.notes.push(
          `${existing.metadata.name}'s template is the Deployment's again (a rollback): its revision goes ${before} → ${after}, one above the highest old revision ${maxOldRevision}, and ${before} joins its revision-history`,
        );
      else if (before !== after) run.notes.push(`${existing.metadata.name} is the new ReplicaSet: it gets revision ${after}`);
      if (minReadyNeedsUpdate) run.notes.push(`${existing.metadata.name} takes the Deployment's minReadySeconds ${minReadySeconds(d)}`);
      if (annotationsUpdated && before === after) run.notes.push(`${existing.metadata.name} takes the Deployment's annotations`);
      return run.updateReplicaSet(existing, copy, null);
    }
    let needsUpdate = setDeploymentRevision(d, existing.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
    if (hasProgressDeadline(d) && !getCondition(status, 'Progressing')) {
      setCondition(status, newCondition('Progressing', 'True', REASON.FoundNewRS, `Found new replica set "${existing.metadata.name}"`, run.now));
      needsUpdate = true;
    }
    if (needsUpdate) run.updateStatus(status);
    return existing;
  }
  if (!create) return null;

  // The name is <deployment>-<pod-template-hash>; the hash (FNV-32a of Go's spew printing of the
  // template) is not reproduced, so the ReplicaSet is created without a known name.
  const template = clone(d.spec.template ?? {});
  const shownName = `${d.metadata.name}-<pod-template-hash>`;
  const newRS: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: shownName,
      namespace: d.metadata.namespace,
      uid: '',
      creationTimestamp: run.now,
      labels: { ...(template.metadata?.labels ?? {}) },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name, uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas: 0,
      minReadySeconds: minReadySeconds(d),
      selector: clone(d.spec.selector ?? null),
      template,
    },
  };
  const n = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
  if ('error' in n) throw new SyncError(n.error);
  newRS.spec.replicas = n.replicas;
  const annotations: Record<string, string> = {};
  setNewReplicaSetAnnotations(d, annotations, newRevision, false);
  newRS.metadata.annotations = annotations;
  const why = isRollingUpdate(d)
    ? `${surgeWords(d)}, so at most ${n.maxTotal} pods; the ReplicaSets have ${n.current}, so the new ReplicaSet starts with ${n.replicas}`
    : `Recreate: the old pods are gone, so the new ReplicaSet starts with all ${n.replicas}`;
  run.createReplicaSet(
    newRS,
    false,
    `${why} (revision ${newRevision}; its name ends in the ${POD_TEMPLATE_HASH_LABEL}, which rs-reconcile does not compute: upstream hashes Go's printing of the template)`,
  );
  let needsUpdate = setDeploymentRevision(d, String(newRevision));
  if (hasProgressDeadline(d)) {
    setCondition(status, newCondition('Progressing', 'True', REASON.NewRSCreated, `Created new replica set "${shownName}"`, run.now));
    needsUpdate = true;
  }
  if (needsUpdate) run.updateStatus(status);
  return newRS;
}

/** isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
export function isScalingEvent(run: SyncRun, rsList: readonly ReplicaSet[]): boolean {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(run, rsList, false);
  const replicas = deploymentReplicas(run.d);
  for (const rs of filterActive([...oldRSs, newRS])) {
    const desired = replicasAnnotation(rs, DESIRED_REPLICAS_ANNOTATION, run.behaviour.replicasAnnotations);
    if (desired !== null && desired !== replicas) return true;
  }
  return false;
}

/**
 * scale: a resize of the Deployment. One active ReplicaSet (or none: the newest) takes all the
 * replicas; a saturated new ReplicaSet leaves old ones at 0; otherwise (RollingUpdate) every active
 * ReplicaSet gets its proportional share of the change, the leftover going to the first in order.
 */
export function scale(run: SyncRun, newRS: ReplicaSet | null, oldRSs: readonly ReplicaSet[]): void {
  const d = run.d;
  const replicas = deploymentReplicas(d);
  const one = findActiveOrLatest(newRS, oldRSs);
  if (one) {
    if (rsReplicas(one) === replicas) return;
    run.scaleReplicaSetAndRecordEvent(
      one,
      replicas,
      `the only active ReplicaSet (the newest when none is active) takes the Deployment's ${plural(replicas, 'replica')}`,
    );
    return;
  }
  if (isSaturated(d, newRS)) {
    for (const old of filterActive(oldRSs))
      run.scaleReplicaSetAndRecordEvent(
        old,
        0,
        `the new ReplicaSet ${newRS?.metadata.name} has all ${replicas} replicas available (saturated), so old ReplicaSets go to 0`,
      );
    return;
  }
  if (!isRollingUpdate(d)) return;
  const all = filterActive([...oldRSs, newRS]);
  const current = replicaCount(all);
  const surge = maxSurge(d);
  const allowed = replicas > 0 ? replicas + surge : 0;
  const toAdd = allowed - current;
  if (toAdd > 0) all.sort(bySizeNewer);
  else if (toAdd < 0) all.sort(bySizeOlder);
  let added = 0;
  const sizes = new Map<ReplicaSet, number>();
  const shares = new Map<ReplicaSet, string>();
  for (const rs of all) {
    if (toAdd === 0) {
      sizes.set(rs, rsReplicas(rs));
      continue;
    }
    const p = getProportion(rs, d, toAdd, added, run.behaviour.replicasAnnotations);
    sizes.set(rs, rsReplicas(rs) + p);
    added += p;
    const before = maxReplicasBeforeScale(rs, d, run.behaviour.replicasAnnotations);
    shares.set(
      rs,
      replicas === 0
        ? `scaling to 0, its share is all ${rsReplicas(rs)}`
        : `its share is ${rsReplicas(rs)} × ${allowed} / ${before} (its max-replicas before) rounded, ${sign(p)}`,
    );
  }
  const head = `the Deployment may have ${replicas} + ${surgeWords(d)} = ${allowed} pods and its active ReplicaSets have ${current}`;
  all.forEach((rs, i) => {
    let extra = '';
    if (i === 0 && toAdd !== 0) {
      const leftover = toAdd - added;
      if (leftover !== 0) extra = `, and the ${leftover} left over goes to it (first in order)`;
      sizes.set(rs, Math.max(0, (sizes.get(rs) ?? 0) + leftover));
    }
    const message = `${head}: ${toAdd > 0 ? `${toAdd} to add` : `${-toAdd} to remove`} in proportion; ${shares.get(rs) ?? 'no share'}${extra}`;
    run.scaleReplicaSet(rs, sizes.get(rs) ?? rsReplicas(rs), message);
  });
}

function sign(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * cleanupDeployment: beyond revisionHistoryLimit old ReplicaSets (not being deleted), the lowest
 * revisions are deleted, each only when it has no pods (spec and status), its generation observed.
 */
export function cleanupDeployment(run: SyncRun, oldRSs: readonly ReplicaSet[]): void {
  const limit = revisionHistoryLimit(run.d);
  if (limit === null) return;
  const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
  const diff = cleanable.length - limit;
  if (diff <= 0) return;
  cleanable.sort(byRevision);
  for (let i = 0; i < diff; i++) {
    const rs = cleanable[i];
    if (
      (rs.status?.replicas ?? 0) !== 0 ||
      rsReplicas(rs) !== 0 ||
      (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0) ||
      rs.metadata.deletionTimestamp
    )
      continue;
    run.deleteReplicaSet(
      rs,
      `revisionHistoryLimit ${limit} keeps ${plural(limit, 'old ReplicaSet')} and there are ${cleanable.length}; ${rs.metadata.name} (revision ${revision(rs) ?? '?'}) is among the ${diff} oldest and has no pods`,
    );
  }
}

/** calculateStatus: the counts from the ReplicaSets' statuses and the Available condition. */
export function calculateStatus(run: SyncRun, allRSs: readonly (ReplicaSet | null)[], newRS: ReplicaSet | null): DeploymentStatus {
  const d = run.d;
  const available = availableReplicaCount(allRSs);
  const total = replicaCount(allRSs);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: actualReplicaCount(allRSs),
    updatedReplicas: actualReplicaCount([newRS]),
    readyReplicas: readyReplicaCount(allRSs),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    collisionCount: d.status?.collisionCount ?? null,
    conditions: (d.status?.conditions ?? []).map((c) => ({ ...c })),
  };
  if (run.behaviour.gates.DeploymentReplicaSetTerminatingReplicas) status.terminatingReplicas = terminatingReplicaCount(allRSs);
  if (available >= deploymentReplicas(d) - maxUnavailable(d))
    setCondition(status, newCondition('Available', 'True', REASON.MinimumReplicasAvailable, 'Deployment has minimum availability.', run.now));
  else setCondition(status, newCondition('Available', 'False', REASON.MinimumReplicasUnavailable, 'Deployment does not have minimum availability.', run.now));
  return status;
}

function conditionKey(c: DeploymentCondition): unknown[] {
  return [c.type, c.status, c.lastUpdateTime ?? null, c.lastTransitionTime ?? null, c.reason ?? '', c.message ?? ''];
}

/** reflect.DeepEqual of two statuses, a field left out being its zero value. */
export function statusEqual(a: DeploymentStatus, b: DeploymentStatus): boolean {
  const key = (s: DeploymentStatus) =>
    JSON.stringify([
      s.observedGeneration ?? 0,
      s.replicas ?? 0,
      s.updatedReplicas ?? 0,
      s.readyReplicas ?? 0,
      s.availableReplicas ?? 0,
      s.unavailableReplicas ?? 0,
      s.terminatingReplicas ?? null,
      s.collisionCount ?? null,
      (s.conditions ?? []).map(conditionKey),
    ]);
  return key(a) === key(b);
}

/** syncDeploymentStatus: writes the calculated status when it differs. */
function syncDeploymentStatus(run: SyncRun, allRSs: readonly (ReplicaSet | null)[], newRS: ReplicaSet | null): void {
  const next = calculateStatus(run, allRSs, newRS);
  if (statusEqual(run.d.status ?? {}, next)) return;
  run.d.status = next;
  run.updateStatus(next);
}

/**
 * sync: a paused Deployment or a scaling event: scale, clean up when paused (not while a
 * rollback is asked for: getRollbackTo), write the status.
 */
export function sync(run: SyncRun, rsList: readonly ReplicaSet[]): void {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(run, rsList, false);
  scale(run, newRS, oldRSs);
  if (run.d.spec.paused && rollbackTo(run.d) === null) cleanupDeployment(run, oldRSs);
  syncDeploymentStatus(run, [...oldRSs, newRS], newRS);
}

/** syncStatusOnly: a Deployment being deleted gets its status, nothing else. */
export function syncStatusOnly(run: SyncRun, rsList: readonly ReplicaSet[]): void {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(run, rsList, false);
  syncDeploymentStatus(run, [...oldRSs, newRS], newRS);
}

/**
 * checkPausedConditions: with a progress deadline, Progressing Unknown DeploymentPaused when
 * paused, DeploymentResumed when resumed; never over a ProgressDeadlineExceeded.
 */
export function checkPausedConditions(run: SyncRun): void {
  const d = run.d;
  if (!hasProgressDeadline(d)) return;
  const status = (d.status ??= {});
  const cond = getCondition(status, 'Progressing');
  if (cond?.reason === REASON.TimedOut) return;
  const pausedExists = cond?.reason === REASON.Paused;
  if (d.spec.paused && !pausedExists) setCondition(status, newCondition('Progressing', 'Unknown', REASON.Paused, 'Deployment is paused', run.now));
  else if (!d.spec.paused && pausedExists) setCondition(status, newCondition('Progressing', 'Unknown', REASON.Resumed, 'Deployment is resumed', run.now));
  else return;
  run.updateStatus(status);
}

/** The claimed list in the order every step reads it (FindNewReplicaSet sorts it in place). */
export function sortedByCreation(rss: readonly ReplicaSet[]): ReplicaSet[] {
  return [...rss].sort(byCreationTimestamp);
}
