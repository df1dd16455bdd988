// manageReplicas: how many pods to create (burst cap, slow-start batches) and which to
// delete (related pods on the same node, ranking, scale to zero unsorted).

import { isPodActive } from './pod.js';
import { deleteReasonOf, rankFacts, sortForDeletion, type Comparison, type RankFacts } from './rank.js';
import type { DeleteReason } from './plan-types.js';
import type { Pod } from './types.js';
import type { Behaviour } from './versions.js';

export const BURST_REPLICAS = 500;
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/**
 * slowStartBatch sizes when every call succeeds: start at `initial`, double after each batch,
 * the last batch is the remainder. 10 → [1, 2, 4, 3]; 500 → [1, 2, 4, …, 128, 245].
 */
export function slowStartBatches(count: number, initial = SLOW_START_INITIAL_BATCH_SIZE): number[] {
  const out: number[] = [];
  let remaining = count;
  let batch = Math.min(remaining, initial);
  while (batch > 0) {
    out.push(batch);
    remaining -= batch;
    batch = Math.min(2 * batch, remaining);
  }
  return out;
}

/** Active related pods per node name (unscheduled pods share ""), the rank of getPodsRankedByRelatedPodsOnSameNode. */
export function podsPerNode(relatedPods: Iterable<Pod>): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of relatedPods) {
    if (!isPodActive(p)) continue;
    const node = p.spec?.nodeName ?? '';
    m.set(node, (m.get(node) ?? 0) + 1);
  }
  return m;
}

interface Victim {
  facts: RankFacts;
  reason: DeleteReason;
  comparison: Comparison | null;
}

export interface DeletionChoice {
  victims: Victim[];
  sorted: boolean; // false for a scale to zero of ≤ burst pods: upstream takes them unsorted
  firstKept: RankFacts | null;
  ordered: RankFacts[]; // every claimed pod in deletion order (victims first)
}

/**
 * getPodsToDelete: sort the claimed pods by rank only when some stay (n < len); a scale to zero
 * of at most `burst` pods takes them in cache order, unsorted.
 */
export function choosePodsToDelete(claimed: Pod[], n: number, perNode: Map<string, number>, nowMs: number, bh: Behaviour): DeletionChoice {
  const facts = claimed.map((p, i) => rankFacts(p, i, perNode.get(p.spec?.nodeName ?? '') ?? 0, nowMs));
  if (n >= facts.length) {
    return { victims: facts.map((f) => ({ facts: f, reason: 'ScaleToZero', comparison: null })), sorted: false, firstKept: null, ordered: facts };
  }
  const ordered = sortForDeletion(facts, bh);
  const firstKept = ordered[n];
  const victims = ordered.slice(0, n).map((f) => {
    const { reason, comparison } = deleteReasonOf(f, firstKept, bh);
    return { facts: f, reason, comparison };
  });
  return { victims, sorted: true, firstKept, ordered };
}
