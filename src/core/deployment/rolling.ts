// rolling.go: rolloutRolling: the new ReplicaSet grows within maxSurge, then old ReplicaSets
// shrink within maxUnavailable (their unhealthy replicas first), then cleanup once complete.

import type { ReplicaSet } from '../types.js';
import { plural, surgeWords, unavailableWords } from './arithmetic.js';
import { syncRolloutStatus } from './progress.js';
import { SyncError, type SyncRun } from './sync-run.js';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision } from './sync.js';
import {
  availableReplicaCount,
  byCreationTimestamp,
  deploymentComplete,
  deploymentReplicas,
  filterActive,
  maxUnavailable,
  newRSNewReplicas,
  replicaCount,
  rsReplicas,
} from './util.js';

/** rolloutRolling. Returns the requeue (seconds) the status step schedules, or null. */
export function rolloutRolling(run: SyncRun, rsList: readonly ReplicaSet[]): number | null {
  const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(run, rsList, true);
  if (!newRS) throw new SyncError('no new ReplicaSet');
  const allRSs = [...oldRSs, newRS];
  if (reconcileNewReplicaSet(run, allRSs, newRS)) return syncRolloutStatus(run, allRSs, newRS);
  if (reconcileOldReplicaSets(run, allRSs, filterActive(oldRSs), newRS)) return syncRolloutStatus(run, allRSs, newRS);
  if (deploymentComplete(run.d, run.d.status ?? {})) cleanupDeployment(run, oldRSs);
  return syncRolloutStatus(run, allRSs, newRS);
}

/** reconcileNewReplicaSet: down to spec.replicas when above; else up as far as maxSurge allows. */
export function reconcileNewReplicaSet(run: SyncRun, allRSs: readonly ReplicaSet[], newRS: ReplicaSet): boolean {
  const d = run.d;
  const replicas = deploymentReplicas(d);
  const size = rsReplicas(newRS);
  if (size === replicas) return false;
  if (size > replicas) return run.scaleReplicaSetAndRecordEvent(newRS, replicas, `the new ReplicaSet has more than the Deployment's ${replicas}`).scaled;
  const n = newRSNewReplicas(d, allRSs, newRS);
  if ('error' in n) throw new SyncError(n.error);
  const message = `${surgeWords(d)}, so at most ${n.maxTotal} pods; the ReplicaSets have ${n.current}, so the new ReplicaSet may grow by ${n.replicas - size} (never past ${replicas})`;
  return run.scaleReplicaSetAndRecordEvent(newRS, n.replicas, message).scaled;
}

/**
 * reconcileOldReplicaSets: at most all pods − minAvailable − the new ReplicaSet's unavailable ones
 * go, unhealthy old replicas first, then available ones while more than minAvailable are available.
 */
export function reconcileOldReplicaSets(run: SyncRun, allRSs: readonly ReplicaSet[], oldRSs: ReplicaSet[], newRS: ReplicaSet): boolean {
  const d = run.d;
  if (replicaCount(oldRSs) === 0) return false;
  const allPods = replicaCount(allRSs);
  const minAvailable = deploymentReplicas(d) - maxUnavailable(d);
  const newUnavailable = rsReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  const why = `${unavailableWords(d)}, so at least ${minAvailable} available; the ReplicaSets have ${allPods} pods and the new one ${newUnavailable} unavailable, so at most ${maxScaledDown} old may go`;
  // an error of either step (an invalid scale down, a 409 from the API server) is swallowed:
  // nothing more is scaled down and the sync goes on as if nothing was (cleanup, status)
  const cleaned = swallowed(() => cleanupUnhealthyReplicas(run, oldRSs, maxScaledDown, why));
  if (cleaned === null) return false;
  const scaledDown = swallowed(() => scaleDownOldReplicaSetsForRollingUpdate(run, [...cleaned.oldRSs, newRS], cleaned.oldRSs));
  if (scaledDown === null) return false;
  return cleaned.count + scaledDown > 0;
}

/** reconcileOldReplicaSets' `return false, nil` on its steps' errors: null for a SyncError. */
function swallowed<T>(step: () => T | null): T | null {
  try {
    return step();
  } catch (e) {
    if (e instanceof SyncError) {
      return null;
    }
    throw e;
  }
}

/** cleanupUnhealthyReplicas: old ReplicaSets (oldest first) lose their unavailable replicas. */
export function cleanupUnhealthyReplicas(run: SyncRun, oldRSs: ReplicaSet[], maxCleanup: number, why: string): { oldRSs: ReplicaSet[]; count: number } | null {
  oldRSs.sort(byCreationTimestamp);
  let total = 0;
  for (let i = 0; i < oldRSs.length; i++) {
    const rs = oldRSs[i];
    if (total >= maxCleanup) break;
    const size = rsReplicas(rs);
    const available = rs.status?.availableReplicas ?? 0;
    if (size === 0 || size === available) continue;
    const count = Math.min(maxCleanup - total, size - available);
    if (size - count > size) return null; // "invalid request to scale down": more available than replicas
    const message = `${why}; ${rs.metadata.name} has ${available} of ${plural(size, 'replica')} available, so its ${plural(size - available, 'unhealthy replica')} ${size - available === 1 ? 'goes' : 'go'} first (${count} now)`;
    oldRSs[i] = run.scaleReplicaSetAndRecordEvent(rs, size - count, message).rs;
    total += count;
  }
  return { oldRSs, count: total };
}

/** scaleDownOldReplicaSetsForRollingUpdate: old ReplicaSets (oldest first) shrink by the available pods above minAvailable. */
export function scaleDownOldReplicaSetsForRollingUpdate(run: SyncRun, allRSs: readonly ReplicaSet[], oldRSs: ReplicaSet[]): number | null {
  const d = run.d;
  const minAvailable = deploymentReplicas(d) - maxUnavailable(d);
  const available = availableReplicaCount(allRSs);
  if (available <= minAvailable) return 0;
  oldRSs.sort(byCreationTimestamp);
  const totalToScaleDown = available - minAvailable;
  let total = 0;
  for (const rs of oldRSs) {
    if (total >= totalToScaleDown) break;
    const size = rsReplicas(rs);
    if (size === 0) continue;
    const count = Math.min(size, totalToScaleDown - total);
    const message = `${unavailableWords(d)}, so at least ${minAvailable} available; ${available} are available, so old ReplicaSets may shrink by ${totalToScaleDown}, the oldest first`;
    run.scaleReplicaSetAndRecordEvent(rs, size - count, message);
    total += count;
  }
  return total;
}
