// progress.go: syncRolloutStatus (the Progressing condition against progressDeadlineSeconds, the
// ReplicaFailure condition moved up from the ReplicaSets) and requeueStuckDeployment.

import { parseTime } from '../time.js';
import type { ReplicaSet, DeploymentCondition, DeploymentStatus } from '../types.js';
import type { SyncRun } from './sync-run.js';
import { calculateStatus, statusEqual } from './sync.js';
import {
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  getCondition,
  hasProgressDeadline,
  newCondition,
  progressDeadlineSeconds,
  REASON,
  removeCondition,
  setCondition,
} from './util.js';

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure conditions, else those of any ReplicaSet. */
function replicaFailures(allRSs: readonly (ReplicaSet | null)[], newRS: ReplicaSet | null): DeploymentCondition[] {
  const of = (rs: ReplicaSet | null): DeploymentCondition[] =>
    (rs?.status?.conditions ?? [])
      .filter((c) => c.type === 'ReplicaFailure')
      .map((c) => ({
        type: c.type,
        status: c.status,
        lastUpdateTime: c.lastTransitionTime ?? null,
        lastTransitionTime: c.lastTransitionTime ?? null,
        reason: c.reason,
        message: c.message,
      }));
  const fromNew = of(newRS);
  return fromNew.length > 0 ? fromNew : allRSs.flatMap(of);
}

/**
 * syncRolloutStatus: calculateStatus, then with a progress deadline (and the rollout not already
 * complete) NewReplicaSetAvailable when complete, ReplicaSetUpdated (lastUpdateTime now) when
 * progressing, ProgressDeadlineExceeded when timed out. Written when it differs; when it does not,
 * requeueStuckDeployment schedules the progress check. Returns the requeue in seconds, or null.
 */
export function syncRolloutStatus(run: SyncRun, allRSs: readonly (ReplicaSet | null)[], newRS: ReplicaSet | null): number | null {
  const d = run.d;
  const next = calculateStatus(run, allRSs, newRS);
  if (!hasProgressDeadline(d)) removeCondition(next, 'Progressing');
  const current = getCondition(d.status ?? {}, 'Progressing');
  const isComplete = next.replicas === next.updatedReplicas && current?.reason === REASON.NewRSAvailable;
  if (hasProgressDeadline(d) && !isComplete) {
    const subject = newRS ? `ReplicaSet "${run.nameOf(newRS) ?? newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
    if (deploymentComplete(d, next)) {
      setCondition(next, newCondition('Progressing', 'True', REASON.NewRSAvailable, `${subject} has successfully progressed.`, run.now));
    } else if (deploymentProgressing(d, next)) {
      const c = newCondition('Progressing', 'True', REASON.ReplicaSetUpdated, `${subject} is progressing.`, run.now);
      if (current) {
        if (current.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
        removeCondition(next, 'Progressing');
      }
      setCondition(next, c);
    } else if (deploymentTimedOut(d, next, run.nowMs)) {
      setCondition(next, newCondition('Progressing', 'False', REASON.TimedOut, `${subject} has timed out progressing.`, run.now));
    }
  }
  const failures = replicaFailures(allRSs, newRS);
  if (failures.length > 0) setCondition(next, failures[0]);
  else removeCondition(next, 'ReplicaFailure');
  if (statusEqual(d.status ?? {}, next)) return requeueStuckDeployment(run, next);
  d.status = next;
  run.updateStatus(next);
  return null;
}

/**
 * requeueStuckDeployment: with a deadline, a Progressing condition, and the rollout neither
 * complete nor timed out, the progress check at lastUpdateTime + progressDeadlineSeconds (plus a
 * second against skew); 0 (rate-limited, at once) when less than a second is left.
 */
export function requeueStuckDeployment(run: SyncRun, next: DeploymentStatus): number | null {
  const d = run.d;
  const current = getCondition(d.status ?? {}, 'Progressing');
  if (!hasProgressDeadline(d) || !current) return null;
  if (deploymentComplete(d, next) || current.reason === REASON.TimedOut) return null;
  const afterMs = (parseTime(current.lastUpdateTime) ?? 0) + (progressDeadlineSeconds(d) ?? 0) * 1000 - run.nowMs;
  if (afterMs < 1000) return 0;
  return afterMs / 1000 + 1;
}
