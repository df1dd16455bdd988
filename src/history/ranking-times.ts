// The times at which a sync's ranking of pods for deletion can change while its state does not:
// upstream ranks ready and creation times in logarithmic buckets of their age at the moment it
// decides, so a pod moves to the next bucket when its age crosses a power of two nanoseconds.
// Pure: the times come from the decision's own facts.

import type { SyncDecision } from '../core/sync-decision.js';

/** How many evaluation times of one window a delete is ranked at, at most. */
export const MAX_RANKING_TIMES = 32;

/** The evaluation times (ms) in [from, to) at which the decision's ranking may differ, oldest first: `from` and every bucket edge after it. */
export function rankingTimes(d: SyncDecision, from: number, to: number): number[] {
  const edges = new Set<number>([from]);
  for (const f of d.deletion?.ordered ?? [])
    for (const t of [f.readyTime, f.created]) {
      if (t === null) continue;
      // the age of 2^b ns, to the microsecond a JS time carries (logBucket rounds the same way)
      for (let b = 10; b < 64; b++) {
        const edge = t + Math.ceil(2 ** b / 1000) / 1000;
        if (edge >= to) break;
        if (edge > from) edges.add(edge);
      }
    }
  return [...edges].sort((a, b) => a - b);
}
