// Human sentences for the plan (why a pod is deleted before the first pod that stays) and for
// `version` (what the emulated controller does differently from one Kubernetes version to another).

import type { DeleteReason } from './plan-types.js';
import type { RankFacts } from './rank.js';
import { bucketSpanSeconds, humanDuration } from './time.js';
import type { Behaviour } from './versions.js';

function since(t: number | null, nowMs: number): string {
  return t === null ? 'an unknown time' : humanDuration((nowMs - t) / 1000);
}

function bucketWords(bucket: number): string {
  if (bucket < 0) return 'at or after the evaluation time';
  const [lo, hi] = bucketSpanSeconds(bucket);
  return `${humanDuration(lo)}–${humanDuration(hi)}`;
}

function restartsWords(f: RankFacts): string {
  const n = f.restarts;
  return `${n} restart${n === 1 ? '' : 's'}` + (f.sidecarRestarts ? ` (sidecars ${f.sidecarRestarts})` : '');
}

/**
 * Why colocation told no pod apart: upstream counts, per node, the active pods of every
 * ReplicaSet that shares the controller's owner (getPodsRankedByRelatedPodsOnSameNode). A standalone ReplicaSet (no controller
 * owner) and a ReplicationController have no such group, so every pod has rank 0.
 */
export type Colocation = 'owner' | 'standalone' | 'rc';

function colocationWords(colocation: Colocation): string {
  if (colocation === 'standalone')
    return 'colocation (a standalone ReplicaSet: colocation only counts pods of ReplicaSets sharing its controller owner, so here it ranks every pod alike)';
  if (colocation === 'rc')
    return 'colocation (a ReplicationController: colocation only counts pods of ReplicaSets sharing a controller owner, so here it ranks every pod alike)';
  return 'colocation';
}

/** One sentence comparing a victim with the first pod that is kept (plan `delete[].message`). */
export function deleteMessage(
  v: RankFacts,
  reason: DeleteReason,
  kept: RankFacts | null,
  nowMs: number,
  uidStepIsReady: boolean,
  colocation: Colocation = 'owner',
): string {
  const a = v.pod.metadata.name;
  if (reason === 'ScaleToZero' || kept === null) {
    return `scaling to 0: every active pod is deleted, and upstream picks them in no particular order`;
  }
  const b = kept.pod.metadata.name;
  const first = `${b} (the first pod that stays)`;
  switch (reason) {
    case 'Unscheduled':
      return `${a} is not scheduled to a node yet, while ${first} runs on ${kept.node}: unscheduled pods go first`;
    case 'Phase':
      return `${a} is ${v.phase || 'in no phase'}, while ${first} is ${kept.phase || 'in no phase'}: Pending goes before Unknown before Running`;
    case 'NotReady':
      return `${a} is not ready, while ${first} is ready: pods that are not ready go first`;
    case 'LowerDeletionCost':
      return `${a} has pod-deletion-cost ${v.cost}, lower than ${first} with ${kept.cost}: the lower cost goes first`;
    case 'MoreOnSameNode':
      return `${a} shares node ${v.node || '(none)'} with ${v.rank} related active pods (itself included), while ${first} has ${kept.rank} on ${kept.node || '(none)'}: pods on crowded nodes go first, to spread the rest`;
    case 'ReadyShorter':
      if (v.readyTime === null)
        return `${a} is ready but its Ready condition has no transition time, which counts as the most recently ready; ${first} has been ready for ${since(kept.readyTime, nowMs)}`;
      return `${a} has been ready for ${since(v.readyTime, nowMs)}, ${first} for ${since(kept.readyTime, nowMs)}: the more recently ready pod goes first`;
    case 'UidOrder':
      return uidStepIsReady
        ? `${a} and ${first} have been ready for a similar time (${since(v.readyTime, nowMs)} and ${since(kept.readyTime, nowMs)}, the same logarithmic bucket ${bucketWords(v.readyBucket)}); upstream then orders by uid at once, without looking at restarts or age, and ${a}'s uid sorts first`
        : `${a} and ${first} were created at a similar time (${since(v.created, nowMs)} and ${since(kept.created, nowMs)} ago, the same logarithmic bucket ${bucketWords(v.createdBucket)}); upstream then orders by uid, and ${a}'s uid sorts first`;
    case 'MoreRestarts':
      return `${a} has ${restartsWords(v)}, ${first} has ${restartsWords(kept)}: the pod that restarted more goes first`;
    case 'Newer':
      if (v.created === null) return `${a} has no creation time, which counts as the newest; ${first} was created ${since(kept.created, nowMs)} ago`;
      return `${a} was created ${since(v.created, nowMs)} ago, ${first} ${since(kept.created, nowMs)} ago: the newer pod goes first`;
    case 'Tie':
      return `${a} and ${first} are equal on every ranking criterion (node, phase, readiness, cost, ${colocationWords(colocation)}, ready time, restarts, age); upstream picks arbitrarily between them`;
  }
}

/** One way the emulated controller differs between Kubernetes versions, for `version`. */
export interface BehaviourFeature {
  /** The feature gate's name, or a short key for a change that came with a release. */
  name: string;
  on: boolean;
  /** What it does, as a person reads it. */
  description: string;
  /** "feature gate" or "1.32+": where it comes from. */
  source: string;
}

/** The behaviour of the emulated controller, feature by feature (the gates, then the releases' changes). */
export function behaviourFeatures(b: Behaviour): BehaviourFeature[] {
  return [
    {
      name: 'PodDeletionCost',
      on: b.gates.PodDeletionCost,
      source: 'feature gate',
      description: 'the controller.kubernetes.io/pod-deletion-cost annotation orders the deletion ranking',
    },
    {
      name: 'LogarithmicScaleDown',
      on: b.gates.LogarithmicScaleDown,
      source: 'feature gate',
      description: 'ready and creation times are compared in logarithmic buckets, then by uid',
    },
    {
      name: 'DeploymentReplicaSetTerminatingReplicas',
      on: b.gates.DeploymentReplicaSetTerminatingReplicas,
      source: 'feature gate',
      description: 'status.terminatingReplicas counts the pods being deleted',
    },
    {
      name: 'StaleControllerConsistencyReplicaSet',
      on: b.gates.StaleControllerConsistencyReplicaSet,
      source: 'feature gate',
      description:
        'kube-controller-manager syncs a ReplicaSet only once its caches hold its own last writes (sync timing only: no plan changes, and rs-reconcile run does not wait)',
    },
    {
      name: 'sidecarRestarts',
      on: b.sidecarRestarts,
      source: '1.32+',
      description: 'sidecar restarts in ranking: equal restarts are decided by restartable init containers',
    },
    {
      name: 'availabilityInclusive',
      on: b.availabilityInclusive,
      source: '1.34+',
      description: 'a pod is available once ready for exactly minReadySeconds (<=, was <)',
    },
    {
      name: 'nextAvailableRequeue',
      on: b.requeue === 'next-available',
      source: '1.34+',
      description: "the sync after a scale-up is queued at the next pod's availability time",
    },
    {
      name: 'ownerIndex',
      on: b.controllerRefIndex === 'namespace-kind-name-uid',
      source: '1.34+',
      description: "owned pods are found by the owner reference's namespace, kind, name and uid (not the uid alone)",
    },
  ];
}

/** "a, b, c", or the first `max` names then "and N more": how long lists of names are said. */
export function firstNames(names: readonly string[], max: number): string {
  return names.length > max ? `${names.slice(0, max).join(', ')} and ${names.length - max} more` : names.join(', ');
}
