// Human sentences for the plan: why a pod is deleted before the first pod that stays.

import type { DeleteReason } from './plan-types.js';
import type { RankFacts } from './rank.js';
import { bucketSpanSeconds, humanDuration } from './time.js';

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

/** One sentence comparing a victim with the first pod that is kept (plan `delete[].message`). */
export function deleteMessage(v: RankFacts, reason: DeleteReason, kept: RankFacts | null, nowMs: number, uidStepIsReady: boolean): string {
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
      if (v.readyTime === null) return `${a} is ready but its Ready condition has no transition time, which counts as the most recently ready; ${first} has been ready for ${since(kept.readyTime, nowMs)}`;
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
      return `${a} and ${first} are equal on every ranking criterion (node, phase, readiness, cost, colocation, ready time, restarts, age); upstream picks arbitrarily between them`;
  }
}
