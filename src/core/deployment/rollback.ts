// The deployment controller's rollback [rollback.go]: the deprecated
// `deprecated.deployment.rollback.to` annotation (extensions/v1beta1's spec.rollbackTo) asks for a
// revision's template again; one sync writes it back on the Deployment and clears the annotation
// (docs/deployment-controller.md §2a). What must stay true: once the new ReplicaSet and revisions
// are synced, the annotation is cleared whatever comes of the rollback, in one update of the
// Deployment.

import type { Deployment, ReplicaSet } from '../types.js';
import type { SyncRun } from './sync-run.js';
import { getAllReplicaSetsAndSyncRevision } from './sync.js';
import type { DeploymentEvent } from './types.js';
import { equalIgnoreHash, type Revision, revision, ROLLBACK_TO_ANNOTATION, skipCopyAnnotation, templateWithoutHash } from './util.js';

/** The rollback's Event reasons (deployment_util.go RollbackRevisionNotFound, RollbackTemplateUnchanged, RollbackDone). */
const ROLLBACK_EVENT = {
  notFound: 'DeploymentRollbackRevisionNotFound',
  templateUnchanged: 'DeploymentRollbackTemplateUnchanged',
  done: 'DeploymentRollback',
} as const;

/**
 * rollback [rollback.go]: the new ReplicaSet and revisions first (created when missing), then the
 * template of the ReplicaSet of the revision asked for (0: the one before the newest) written on
 * the Deployment with that ReplicaSet's annotations, and the rollback annotation cleared, in one
 * update of the Deployment. A revision not found, or a template already the Deployment's, gives
 * the rollback up with a Warning: the annotation is cleared all the same.
 */
export function rollback(run: SyncRun, rsList: readonly ReplicaSet[], asked: Revision): void {
  const d = run.d;
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(run, rsList, true);
  const allRSs = newRS ? [...oldRSs, newRS] : [...oldRSs];
  let to = asked;
  if (to === 0n) {
    to = lastRevision(allRSs);
    if (to === 0n) {
      run.notes.push(`${ROLLBACK_TO_ANNOTATION} 0 asks for the revision before the newest, and there is none: the rollback is given up`);
      return clearRollbackTo(run, { type: 'Warning', reason: ROLLBACK_EVENT.notFound, message: 'Unable to find last revision.' }, null);
    }
  }
  const target = allRSs.find((rs) => revision(rs) === to);
  if (!target) {
    run.notes.push(`no ReplicaSet of the Deployment has revision ${to}: the rollback is given up`);
    return clearRollbackTo(run, { type: 'Warning', reason: ROLLBACK_EVENT.notFound, message: 'Unable to find the revision to rollback to.' }, null);
  }
  if (equalIgnoreHash(d.spec.template, target.spec.template)) {
    run.notes.push(`revision ${to} (${target.metadata.name}) has the Deployment's template already: nothing to roll back`);
    const message = `The rollback revision contains the same template as current deployment "${d.metadata.name}"`;
    return clearRollbackTo(run, { type: 'Warning', reason: ROLLBACK_EVENT.templateUnchanged, message }, null);
  }
  d.spec.template = templateWithoutHash(target.spec.template ?? {}); // SetFromReplicaSetTemplate
  setDeploymentAnnotationsTo(d, target);
  run.notes.push(
    `the template of revision ${to} (${target.metadata.name}) is written back on the Deployment, with its annotations; the next sync makes ${target.metadata.name} the new ReplicaSet again`,
  );
  clearRollbackTo(run, null, { type: 'Normal', reason: ROLLBACK_EVENT.done, message: `Rolled back deployment "${d.metadata.name}" to revision ${to}` });
}

/** updateDeploymentAndClearRollbackTo: the rollback annotation removed, the Deployment updated. */
function clearRollbackTo(run: SyncRun, warning: DeploymentEvent | null, event: DeploymentEvent | null): void {
  const { [ROLLBACK_TO_ANNOTATION]: _asked, ...annotations } = run.d.metadata.annotations ?? {};
  run.d.metadata.annotations = annotations;
  run.updateDeployment(warning, event);
}

/** LastRevision: the second highest parseable revision (the one before the newest), 0 when none. */
function lastRevision(rss: readonly ReplicaSet[]): Revision {
  let max = 0n;
  let secMax = 0n;
  for (const rs of rss) {
    const v = revision(rs);
    if (v === null) continue;
    if (v >= max) {
      secMax = max;
      max = v;
    } else if (v > secMax) secMax = v;
  }
  return secMax;
}

/**
 * SetDeploymentAnnotationsTo on the Deployment copy `d` (mutated), rolling back to `rs`: the
 * Deployment keeps only its skipped annotations (last-applied, revision, …) and takes every other
 * one from the ReplicaSet.
 */
function setDeploymentAnnotationsTo(d: Deployment, rs: ReplicaSet): void {
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (skipCopyAnnotation(k)) annotations[k] = v;
  for (const [k, v] of Object.entries(rs.metadata.annotations ?? {})) if (!skipCopyAnnotation(k)) annotations[k] = v;
  d.metadata.annotations = annotations;
}
