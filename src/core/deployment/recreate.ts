// recreate.go: rolloutRecreate: every old ReplicaSet to 0, then wait until no old pod runs, then
// the new ReplicaSet (created only now) to spec.replicas.

import type { Pod, ReplicaSet } from '../types.js';
import { syncRolloutStatus } from './progress.js';
import { SyncError, type SyncRun } from './sync-run.js';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision } from './sync.js';
import { actualReplicaCount, deploymentComplete, deploymentReplicas, filterActive, rsReplicas } from './util.js';

/** The Deployment's pods by the uid of the ReplicaSet that controls them (getPodMapForDeployment). */
export type PodMap = Map<string, Pod[]> | null;

export function rolloutRecreate(run: SyncRun, rsList: readonly ReplicaSet[], podMap: PodMap): number | null {
  let { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(run, rsList, false);
  let allRSs: (ReplicaSet | null)[] = [...oldRSs, newRS];
  if (scaleDownOldReplicaSetsForRecreate(run, filterActive(oldRSs))) return syncRolloutStatus(run, allRSs, newRS);
  const running = oldPodsRunning(newRS, oldRSs, podMap);
  if (running) {
    run.notes.push(`Recreate waits: ${running}, so the new ReplicaSet is not scaled up yet`);
    return syncRolloutStatus(run, allRSs, newRS);
  }
  if (!newRS) {
    ({ newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(run, rsList, true));
    allRSs = [...oldRSs, newRS];
  }
  if (!newRS) throw new SyncError('no new ReplicaSet');
  run.scaleReplicaSetAndRecordEvent(newRS, deploymentReplicas(run.d), 'Recreate: no old pod runs any more, so the new ReplicaSet takes all the replicas');
  if (deploymentComplete(run.d, run.d.status ?? {})) cleanupDeployment(run, oldRSs);
  return syncRolloutStatus(run, allRSs, newRS);
}

function scaleDownOldReplicaSetsForRecreate(run: SyncRun, oldRSs: ReplicaSet[]): boolean {
  let scaled = false;
  for (let i = 0; i < oldRSs.length; i++) {
    if (rsReplicas(oldRSs[i]) === 0) continue;
    const r = run.scaleReplicaSetAndRecordEvent(oldRSs[i], 0, 'Recreate: every old ReplicaSet goes to 0 before the new one grows');
    if (r.scaled) {
      oldRSs[i] = r.rs;
      scaled = true;
    }
  }
  return scaled;
}

/**
 * oldPodsRunning: why old pods still count as running (an old ReplicaSet reports replicas, or a
 * pod of an old ReplicaSet is not Failed or Succeeded), or null when none does.
 */
export function oldPodsRunning(newRS: ReplicaSet | null, oldRSs: readonly ReplicaSet[], podMap: PodMap): string | null {
  const reported = actualReplicaCount(oldRSs);
  if (reported > 0) return `old ReplicaSets report ${reported} pods in status.replicas`;
  if (!podMap) return null;
  for (const [uid, pods] of podMap) {
    if (newRS && newRS.metadata.uid === uid) continue;
    const p = pods.find((x) => x.status?.phase !== 'Failed' && x.status?.phase !== 'Succeeded');
    if (p) return `old pod ${p.metadata.name} is ${p.status?.phase ?? 'without a phase'}`;
  }
  return null;
}
