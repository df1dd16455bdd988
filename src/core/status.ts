// Status: calculateStatus, the skip rule of updateReplicaSetStatus, and the availability
// requeue, all evaluated at one `now`.

import { desiredReplicas, minReadySeconds } from './controller.js';
import { availableAtMs, isPodAvailable, isPodReady } from './pod.js';
import { selectorFromSet } from './selector.js';
import type { Controller, Pod, ReplicaSetCondition, ReplicaSetStatus } from './types.js';
import { formatTime } from './time.js';
import type { Behaviour } from './versions.js';

const REPLICA_FAILURE = 'ReplicaFailure';

export interface ComputedStatus {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  terminatingReplicas: number | null; // null = unset
  observedGeneration: number;
  conditions: ReplicaSetCondition[];
}

/** The current status with absent counters read as Go reads them (zero values). */
export function currentStatus(c: Controller): ComputedStatus {
  const s: ReplicaSetStatus = c.status ?? {};
  return {
    replicas: s.replicas ?? 0,
    fullyLabeledReplicas: s.fullyLabeledReplicas ?? 0,
    readyReplicas: s.readyReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
    terminatingReplicas: s.terminatingReplicas ?? null,
    observedGeneration: s.observedGeneration ?? 0,
    conditions: (s.conditions ?? []).map((x) => ({ ...x })),
  };
}

/**
 * calculateStatus: counts over the claimed pods as they were before this sync's creates and
 * deletes (pitfall 1). `terminating` is null when the emulated version does not write it.
 * The ReplicaFailure condition is added only when absent and removed only on a clean sync.
 */
export function calculateStatus(
  c: Controller,
  claimed: readonly Pod[],
  terminating: number | null,
  manageError: string | null,
  nowMs: number,
  bh: Behaviour,
): ComputedStatus {
  const next = currentStatus(c);
  const template = selectorFromSet(c.spec.template?.metadata?.labels ?? {});
  const minReady = minReadySeconds(c);
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const p of claimed) {
    if (template.matches(p.metadata.labels)) fullyLabeled++;
    if (isPodReady(p)) {
      ready++;
      if (isPodAvailable(p, minReady, nowMs, bh.availabilityInclusive)) available++;
    }
  }
  const failure = next.conditions.find((x) => x.type === REPLICA_FAILURE);
  if (manageError !== null && !failure) {
    const diff = claimed.length - desiredReplicas(c);
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    next.conditions.push({ type: REPLICA_FAILURE, status: 'True', lastTransitionTime: formatTime(nowMs), reason, message: manageError });
  } else if (manageError === null && failure) {
    next.conditions = next.conditions.filter((x) => x.type !== REPLICA_FAILURE);
  }
  next.replicas = claimed.length;
  next.fullyLabeledReplicas = fullyLabeled;
  next.readyReplicas = ready;
  next.availableReplicas = available;
  next.terminatingReplicas = terminating;
  return next;
}

function conditionsEqual(a: ReplicaSetCondition[], b: ReplicaSetCondition[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => JSON.stringify(x) === JSON.stringify(b[i]));
}

/**
 * updateReplicaSetStatus's skip rule: no write when every counter (terminatingReplicas as an
 * optional value: unset ≠ 0), the conditions, and generation == observedGeneration all hold.
 */
export function statusNeedsWrite(c: Controller, next: ComputedStatus): boolean {
  const cur = currentStatus(c);
  return !(
    cur.replicas === next.replicas &&
    cur.fullyLabeledReplicas === next.fullyLabeledReplicas &&
    cur.readyReplicas === next.readyReplicas &&
    cur.availableReplicas === next.availableReplicas &&
    cur.terminatingReplicas === next.terminatingReplicas &&
    (c.metadata.generation ?? 0) === cur.observedGeneration &&
    conditionsEqual(cur.conditions, next.conditions)
  );
}

/**
 * The availability requeue after a successful sync (syncReplicaSet's MinReadySeconds and availability requeues), in seconds, or null.
 * v1.34+: when ready ≠ available, at the soonest time a ready pod becomes available (else
 * minReadySeconds). Older: when every desired pod is ready but not all are available, after
 * exactly minReadySeconds.
 */
export function availabilityRequeueSeconds(c: Controller, written: ComputedStatus, claimed: readonly Pod[], nowMs: number, bh: Behaviour): number | null {
  const minReady = minReadySeconds(c);
  if (minReady <= 0) return null;
  if (bh.requeue === 'legacy') {
    const want = desiredReplicas(c);
    return written.readyReplicas === want && written.availableReplicas !== want ? minReady : null;
  }
  if (written.readyReplicas === written.availableReplicas) return null;
  let soonest: number | null = null;
  for (const p of claimed) {
    const at = availableAtMs(p, minReady);
    if (at === null) continue;
    const remaining = at - nowMs;
    if (remaining > 0 && (soonest === null || remaining < soonest)) soonest = remaining;
  }
  return soonest === null ? minReady : soonest / 1000;
}

/** The status as written (and as the plan shows it): terminatingReplicas only when emulated. */
export function writtenStatus(s: ComputedStatus): {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  observedGeneration: number;
  terminatingReplicas?: number;
  conditions: ReplicaSetCondition[];
} {
  const out: ReturnType<typeof writtenStatus> = {
    replicas: s.replicas,
    fullyLabeledReplicas: s.fullyLabeledReplicas,
    readyReplicas: s.readyReplicas,
    availableReplicas: s.availableReplicas,
    observedGeneration: s.observedGeneration,
    conditions: s.conditions,
  };
  if (s.terminatingReplicas !== null) out.terminatingReplicas = s.terminatingReplicas;
  return out;
}
