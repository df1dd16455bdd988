// Deletion ranking: upstream's ActivePodsWithRanks.Less, criterion by criterion, on facts
// computed once per pod. `compareForDeletion` also says which criterion decided, so a plan can
// say why a pod goes before the first pod that stays.

import type { DeleteReason } from './plan-types.js';
import { deletionCost, isPodReady, maxContainerRestarts, podReadyTime } from './pod.js';
import { logBucket, parseTime } from './time.js';
import type { Pod } from './types.js';
import type { Behaviour } from './versions.js';

export interface RankFacts {
  pod: Pod;
  index: number; // position in cache order (stable-sort tie-break)
  uid: string;
  node: string; // "" when unscheduled
  phase: string;
  phaseOrdinal: number;
  ready: boolean;
  cost: number;
  rank: number; // active related pods on the same node (getPodsRankedByRelatedPodsOnSameNode)
  readyTime: number | null;
  readyBucket: number;
  restarts: number;
  sidecarRestarts: number;
  created: number | null;
  createdBucket: number;
}

type Criterion =
  | 'Unscheduled'
  | 'Phase'
  | 'NotReady'
  | 'LowerDeletionCost'
  | 'MoreOnSameNode'
  | 'ReadyShorter'
  | 'ReadyUid'
  | 'MoreRestarts'
  | 'Newer'
  | 'CreatedUid';

// PodPending < PodUnknown < PodRunning; anything else (incl. "") is 0 like a missing map key.
const PHASE_ORDINAL = new Map<string, number>([
  ['Pending', 0],
  ['Unknown', 1],
  ['Running', 2],
]);

export function rankFacts(pod: Pod, index: number, rank: number, nowMs: number): RankFacts {
  const readyTime = podReadyTime(pod);
  const created = parseTime(pod.metadata.creationTimestamp);
  const { regular, sidecar } = maxContainerRestarts(pod);
  const phase = pod.status?.phase ?? '';
  return {
    pod,
    index,
    uid: pod.metadata.uid,
    node: pod.spec?.nodeName ?? '',
    phase,
    phaseOrdinal: PHASE_ORDINAL.get(phase) ?? 0,
    ready: isPodReady(pod),
    cost: deletionCost(pod),
    rank,
    readyTime,
    readyBucket: readyTime === null ? -1 : logBucket(readyTime, nowMs),
    restarts: regular,
    sidecarRestarts: sidecar,
    created,
    createdBucket: created === null ? -1 : logBucket(created, nowMs),
  };
}

export interface Comparison {
  less: boolean; // a should be deleted before b
  criterion: Criterion | null; // the step that decided; null when every criterion is equal
}

const TIE: Comparison = { less: false, criterion: null };

/** afterOrZero: a zero time counts as the newest; otherwise the later time is "less". */
function afterOrZero(t1: number | null, t2: number | null): boolean {
  if (t1 === null || t2 === null) return t1 === null;
  return t1 > t2;
}

/**
 * Steps 6 and 8: times that differ are compared exactly (gate off, or a zero time) or by
 * logarithmic bucket, where one bucket is decided by uid at once.
 */
function compareTimes(
  t1: number | null,
  t2: number | null,
  b1: number,
  b2: number,
  a: RankFacts,
  b: RankFacts,
  logarithmic: boolean,
  step: Criterion,
  uidStep: Criterion,
): Comparison {
  if (!logarithmic || t1 === null || t2 === null) return { less: afterOrZero(t1, t2), criterion: step };
  const diff = b1 - b2;
  if (diff === 0) return { less: a.uid < b.uid, criterion: uidStep };
  return { less: diff < 0, criterion: step };
}

/** ActivePodsWithRanks.Less(a, b) with the deciding criterion. */
export function compareForDeletion(a: RankFacts, b: RankFacts, bh: Behaviour): Comparison {
  // 1. Unassigned < assigned.
  if (a.node !== b.node && (a.node === '' || b.node === '')) return { less: a.node === '', criterion: 'Unscheduled' };
  // 2. Pending < Unknown < Running.
  if (a.phaseOrdinal !== b.phaseOrdinal) return { less: a.phaseOrdinal < b.phaseOrdinal, criterion: 'Phase' };
  // 3. Not ready < ready.
  if (a.ready !== b.ready) return { less: !a.ready, criterion: 'NotReady' };
  // 4. Lower pod-deletion-cost < higher.
  if (bh.gates.PodDeletionCost && a.cost !== b.cost) return { less: a.cost < b.cost, criterion: 'LowerDeletionCost' };
  // 5. Doubled up < not doubled up.
  if (a.rank !== b.rank) return { less: a.rank > b.rank, criterion: 'MoreOnSameNode' };
  // 6. Been ready for empty time < less time < more time (only when both are ready).
  if (a.ready && b.ready && a.readyTime !== b.readyTime) {
    return compareTimes(a.readyTime, b.readyTime, a.readyBucket, b.readyBucket, a, b, bh.gates.LogarithmicScaleDown, 'ReadyShorter', 'ReadyUid');
  }
  // 7. Higher restart counts < lower; regular containers, then sidecars.
  if (a.restarts !== b.restarts) return { less: a.restarts > b.restarts, criterion: 'MoreRestarts' };
  if (bh.sidecarRestarts && a.sidecarRestarts !== b.sidecarRestarts) return { less: a.sidecarRestarts > b.sidecarRestarts, criterion: 'MoreRestarts' };
  // 8. Empty creation time < newer < older.
  if (a.created !== b.created) {
    return compareTimes(a.created, b.created, a.createdBucket, b.createdBucket, a, b, bh.gates.LogarithmicScaleDown, 'Newer', 'CreatedUid');
  }
  return TIE;
}

function lessForDeletion(a: RankFacts, b: RankFacts, bh: Behaviour): boolean {
  return compareForDeletion(a, b, bh).less;
}

/**
 * Sorts pods for deletion with upstream's comparator. Upstream uses Go's unstable sort.Sort;
 * here a stable sort over cache order makes ties deterministic.
 */
export function sortForDeletion(facts: RankFacts[], bh: Behaviour): RankFacts[] {
  return [...facts].sort((x, y) => (lessForDeletion(x, y, bh) ? -1 : lessForDeletion(y, x, bh) ? 1 : x.index - y.index));
}

/** The plan reason for a victim compared with the first pod that stays. */
export function deleteReasonOf(victim: RankFacts, firstKept: RankFacts, bh: Behaviour): { reason: DeleteReason; comparison: Comparison } {
  const comparison = compareForDeletion(victim, firstKept, bh);
  if (!comparison.less || comparison.criterion === null) return { reason: 'Tie', comparison };
  const c = comparison.criterion;
  return { reason: c === 'ReadyUid' || c === 'CreatedUid' ? 'UidOrder' : c, comparison };
}
