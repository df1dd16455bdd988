// Pod predicates of upstream's controller_utils.go and pkg/api/v1/pod/util.go (IsPodActive, IsPodReady, ActivePodsWithRanks).

import { parseTime } from './time.js';
import type { OwnerReference, Pod, PodCondition } from './types.js';

export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

const TERMINAL = new Set(['Succeeded', 'Failed']);

/** IsPodActive: not terminal and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  return !TERMINAL.has(pod.status?.phase ?? '') && !pod.metadata.deletionTimestamp;
}

/** IsPodTerminating: deletionTimestamp set and the phase not terminal. */
export function isPodTerminating(pod: Pod): boolean {
  return !!pod.metadata.deletionTimestamp && !TERMINAL.has(pod.status?.phase ?? '');
}

export function isPodTerminal(pod: Pod): boolean {
  return TERMINAL.has(pod.status?.phase ?? '');
}

/** The first condition of type Ready (GetPodReadyCondition). */
function readyCondition(pod: Pod): PodCondition | undefined {
  const conds = pod.status?.conditions;
  if (!conds) return undefined;
  for (const c of conds) if (c && c.type === 'Ready') return c;
  return undefined;
}

/** IsPodReady: the first Ready condition has status True; the phase is not consulted. */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/**
 * podReadyTime of the ranking: the transition time of the first Ready condition whose status is
 * True, for a ready pod; null (Go's zero time) otherwise or when missing.
 */
export function podReadyTime(pod: Pod): number | null {
  if (!isPodReady(pod)) return null;
  for (const c of pod.status?.conditions ?? []) {
    if (c && c.type === 'Ready' && c.status === 'True') return parseTime(c.lastTransitionTime);
  }
  return null;
}

/**
 * IsPodAvailable: ready, and minReadySeconds is 0 or the Ready transition time (non-zero) plus
 * minReadySeconds is at or before now (`inclusive`, v1.34+) / strictly before now (older).
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowMs: number, inclusive: boolean): boolean {
  const ready = readyCondition(pod);
  if (ready?.status !== 'True') return false; // IsPodReady
  if (minReadySeconds === 0) return true;
  const t = parseTime(ready.lastTransitionTime);
  if (t === null) return false;
  const availableAt = t + minReadySeconds * 1000;
  return inclusive ? availableAt <= nowMs : availableAt < nowMs;
}

/** When a ready pod becomes available (ms), or null if it never will by the clock alone. */
export function availableAtMs(pod: Pod, minReadySeconds: number): number | null {
  if (!isPodReady(pod)) return null;
  const t = parseTime(readyCondition(pod)?.lastTransitionTime);
  return t === null ? null : t + minReadySeconds * 1000;
}

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;

/**
 * GetDeletionCostFromPodAnnotations: the annotation parsed as a base-10 int32, whose first
 * character must be '-', or '1'-'9', or be exactly "0". Anything else counts as 0 (invalid).
 */
export function parseDeletionCost(raw: string | undefined | null): { cost: number; valid: boolean } {
  if (raw === undefined || raw === null) return { cost: 0, valid: true };
  const firstOk = raw === '0' || /^[1-9]/.test(raw) || raw.startsWith('-');
  if (!firstOk || !/^-?[0-9]+$/.test(raw)) return { cost: 0, valid: false };
  const n = BigInt(raw);
  if (n < INT32_MIN || n > INT32_MAX) return { cost: 0, valid: false };
  return { cost: Number(n), valid: true };
}

export function deletionCost(pod: Pod): number {
  return parseDeletionCost(pod.metadata.annotations?.[POD_DELETION_COST_ANNOTATION]).cost;
}

/**
 * maxContainerRestarts: the maximum restart count over regular containers, and (apart) over
 * restartable init containers (sidecars: initContainers[].restartPolicy Always).
 */
export function maxContainerRestarts(pod: Pod): { regular: number; sidecar: number } {
  let regular = 0;
  for (const c of pod.status?.containerStatuses ?? []) regular = Math.max(regular, c?.restartCount ?? 0);
  let sidecar = 0;
  const inits = pod.spec?.initContainers;
  if (inits?.length) {
    const sidecars = new Set(inits.filter((c) => c?.restartPolicy === 'Always').map((c) => c.name));
    if (sidecars.size) {
      for (const c of pod.status?.initContainerStatuses ?? []) {
        if (c && sidecars.has(c.name)) sidecar = Math.max(sidecar, c.restartCount ?? 0);
      }
    }
  }
  return { regular, sidecar };
}

/** metav1.GetControllerOf: the first owner reference with controller: true (none without metadata). */
export function controllerRef(obj: { metadata?: { ownerReferences?: readonly OwnerReference[] | null } | null }): OwnerReference | undefined {
  const refs = obj.metadata?.ownerReferences;
  if (!refs) return undefined;
  for (const r of refs) if (r && r.controller === true) return r;
  return undefined;
}
