// `explain pod/NAME`: one pod seen from every controller that lists it. Nothing is decided here:
// the decisions are the planner's (`planController`), the ranking is rank.ts/manage.ts run again
// on the same facts; this file gathers them, adds the orphan evidence (pod-explain-orphan.ts),
// and searches the pod-deletion-cost that would keep the pod by re-ranking with candidate costs.

import { desiredReplicas, namespaceOf } from './controller.js';
import { choosePodsToDelete } from './manage.js';
import { deleteMessage } from './messages.js';
import { ClusterPlanner, type PlanOptions } from './plan.js';
import { deletesOf, type SyncDecision } from './sync-decision.js';
import { PLAN_API_VERSION } from './plan-types.js';
import { orphanOf } from './pod-explain-orphan.js';
import type { DeletionCase, KeepCost, PodDeletion, PodExplanation, PodExplanationController, PodExplanationOwner } from './pod-explain-types.js';
import { controllerRef, deletionCost, isPodReady, POD_DELETION_COST_ANNOTATION } from './pod.js';
import { rankFacts, sortForDeletion } from './rank.js';
import { formatTime } from './time.js';
import type { Pod, Snapshot } from './types.js';

const INT32_MAX = 2147483647;

export interface PodExplainInput {
  snapshot: Snapshot;
  /** Planner options as the command chose them (time, behaviour, source, burst); no what-if. */
  options: PlanOptions;
  pod: Pod;
  /** --replicas: as if the controller that counts the pod were scaled to N. */
  replicas?: number;
  /** A planner already built on `snapshot` with `options` (saves indexing the pods twice). */
  planner?: ClusterPlanner;
}

/** The pods of the input with this name: in `namespace`, or in any namespace when null. */
export function findPods(snapshot: Snapshot, name: string, namespace: string | null): Pod[] {
  return snapshot.pods.filter((p) => p.metadata.name === name && (namespace === null || namespaceOf(p) === namespace));
}

/** True when a controller would adopt, release or delete the pod (the exit status 1 of diff). */
export function podExplanationActs(e: PodExplanation): boolean {
  return e.controllers.some((c) => c.decision === 'adopt' || c.decision === 'release' || c.delete !== null);
}

export function buildPodExplanation(input: PodExplainInput): PodExplanation {
  const { snapshot, options, pod } = input;
  const base = input.planner ?? new ClusterPlanner(snapshot, { ...options, include: undefined, replicasOverride: undefined });
  const ns = namespaceOf(pod);
  const uid = pod.metadata.uid;
  const notes: string[] = [];

  const listing = listingControllers(base, pod);
  const counting = listing.filter((d) => d.claimed.some((p) => p.metadata.uid === uid));
  const { shown, whatIf } = scaledWhatIf(input, listing, counting, notes);
  const controllers = shown.map((d) => controllerEntry(d, uid));
  const owner = ownerOf(base, pod);
  const deletion = podDeletion(base, counting, whatIf, pod, options, notes);

  return {
    apiVersion: PLAN_API_VERSION,
    kind: 'PodExplanation',
    now: formatTime(options.now),
    kubernetesVersion: options.behaviour.version,
    source: options.source,
    pod: {
      namespace: ns,
      name: pod.metadata.name,
      uid,
      phase: pod.status?.phase ?? null,
      ready: isPodReady(pod),
      node: pod.spec?.nodeName || null,
    },
    owner,
    controllers,
    orphan: orphanOf(base, pod, options.source),
    deletion,
    notes,
  };
}

/** Controllers that select or own the pod and list it, planned as the sync would. */
function listingControllers(base: ClusterPlanner, pod: Pod): SyncDecision[] {
  const ns = namespaceOf(pod);
  const uid = pod.metadata.uid;
  const listing: SyncDecision[] = [];
  for (const c of base.controllers) {
    if (namespaceOf(c) !== ns) continue;
    const sel = base.selectorOf(c);
    const selects = sel.ok && sel.selector.matches(pod.metadata.labels);
    if (!selects && controllerRef(pod)?.uid !== c.metadata.uid) continue;
    const d = base.planController(c);
    if (d.claims.some((p) => p.pod.metadata.uid === uid)) listing.push(d);
  }
  return listing;
}

/**
 * With --replicas the controllers that count the pod are planned scaled (a what-if of theirs):
 * `whatIf` holds their scaled decisions, `shown` the listing with those in place.
 */
function scaledWhatIf(
  input: PodExplainInput,
  listing: SyncDecision[],
  counting: SyncDecision[],
  notes: string[],
): { shown: SyncDecision[]; whatIf: SyncDecision[] } {
  if (input.replicas === undefined) return { shown: listing, whatIf: [] };
  const n = input.replicas;
  if (counting.length === 0) {
    notes.push(`--replicas ${n} has nothing to scale: no controller counts this pod as its own (after this sync's adopt and release)`);
    return { shown: listing, whatIf: [] };
  }
  const scaled = new Set(counting.map((d) => d.controller.kind + '/' + d.controller.metadata.uid));
  const planner = new ClusterPlanner(input.snapshot, {
    ...input.options,
    include: undefined,
    replicasOverride: (c) => (scaled.has(c.kind + '/' + c.metadata.uid) ? n : undefined),
  });
  const whatIf = counting.map((d) =>
    planner.planController(planner.controllers.find((c) => c.kind === d.controller.kind && c.metadata.uid === d.controller.metadata.uid)!),
  );
  const shown = listing.map((d) => whatIf.find((w) => w.controller.kind === d.controller.kind && w.controller.metadata.uid === d.controller.metadata.uid) ?? d);
  return { shown, whatIf };
}

/** The pod's controller reference, and whether that controller is in the input. */
function ownerOf(base: ClusterPlanner, pod: Pod): PodExplanationOwner | null {
  const ns = namespaceOf(pod);
  const ref = controllerRef(pod);
  return ref
    ? {
        kind: ref.kind,
        name: ref.name,
        uid: ref.uid,
        found: base.controllers.some((c) => c.kind === ref.kind && c.metadata.uid === ref.uid && namespaceOf(c) === ns),
      }
    : null;
}

/** The pod's place in the deletion order of the first controller that counts it: now, and with --replicas. */
function podDeletion(
  base: ClusterPlanner,
  counting: SyncDecision[],
  whatIf: SyncDecision[],
  pod: Pod,
  options: PlanOptions,
  notes: string[],
): PodDeletion | null {
  if (counting.length === 0) return null;
  // More than one controller counting one pod is a fight upstream leaves undecided (each
  // adopts in its own sync): the order shown is the first one's.
  if (counting.length > 1)
    notes.push(
      `${counting.length} controllers would each count this pod (overlapping selectors): the deletion order below is ${counting[0].controller.kind} ${counting[0].controller.metadata.name}'s`,
    );
  const d = counting[0];
  return {
    kind: d.controller.kind,
    namespace: namespaceOf(d.controller),
    name: d.controller.metadata.name,
    now: deletionCase(base, d, pod, options),
    whatIf: whatIf.length > 0 ? deletionCase(base, whatIf[0], pod, options) : null,
  };
}

/** What one controller's decision does to the pod: its claim, and its place in the deletions. */
function controllerEntry(d: SyncDecision, podUid: string): PodExplanationController {
  const p = d.claims.find((x) => x.pod.metadata.uid === podUid)!;
  const deletes = deletesOf(d);
  const i = deletes.findIndex((x) => x.uid === podUid);
  return {
    kind: d.controller.kind,
    namespace: namespaceOf(d.controller),
    name: d.controller.metadata.name,
    uid: d.controller.metadata.uid,
    decision: p.decision,
    reason: p.reason,
    message: p.message,
    delete: i < 0 ? null : { order: i + 1, reason: deletes[i].reason, message: deletes[i].message },
  };
}

// ---------------------------------------------------------------------------------------------
// Deletion order and the cost that keeps the pod

function deletionCase(planner: ClusterPlanner, d: SyncDecision, pod: Pod, options: PlanOptions): DeletionCase {
  const bh = options.behaviour;
  const now = d.now;
  const claimed = d.claimed;
  const at = claimed.findIndex((p) => p.metadata.uid === pod.metadata.uid);
  const mine = claimed[at];
  const perNode = d.deletion ? d.perNode : planner.relatedPodsPerNode(d.controller);
  // The full ranking of every counted pod: what a scale to 0 with sorting would order.
  const facts = claimed.map((p, i) => rankFacts(p, i, perNode.get(p.spec?.nodeName ?? '') ?? 0, now));
  const rank = sortForDeletion(facts, bh).findIndex((f) => f.index === at) + 1;
  const deletes = d.deletion?.victims.length ?? 0;
  const picked = (d.deletion?.victims ?? []).some((v) => v.facts.pod === mine);
  const current = deletionCost(mine);
  const base = { replicas: desiredReplicas(d.controller), pods: claimed.length, deletes, rank, picked, pickedAtOrBelow: claimed.length - rank };

  let keep: KeepCost;
  if (!picked) {
    keep = {
      current,
      cost: null,
      blockedBy: 'NotPicked',
      message:
        deletes === 0
          ? 'it is not picked: this sync deletes no pod'
          : `it is not picked: this sync deletes ${deletes === 1 ? '1 pod that ranks' : `${deletes} pods that rank`} before it`,
    };
  } else if (deletes >= claimed.length) {
    keep = { current, cost: null, blockedBy: 'ScaleToZero', message: 'no cost helps: every pod it counts is deleted (a scale to 0)' };
  } else if (!bh.gates.PodDeletionCost) {
    keep = {
      current,
      cost: null,
      blockedBy: 'GateOff',
      message: 'no cost helps: the PodDeletionCost feature gate is off, so upstream does not compare the annotation',
    };
  } else {
    keep = keepingCost(claimed, at, deletes, perNode, now, options);
  }
  return { ...base, keep };
}

/** The pod at `at` with the annotation set to `cost`. */
function withCost(p: Pod, cost: number): Pod {
  return { ...p, metadata: { ...p.metadata, annotations: { ...(p.metadata.annotations ?? {}), [POD_DELETION_COST_ANNOTATION]: String(cost) } } };
}

/**
 * The smallest int32 cost at which the pod is not among the `n` picked, found by re-ranking with
 * the annotation set. Whether it is picked changes only where its cost crosses another pod's, so
 * the candidates are each other cost and the one above it; picked is monotone in the cost
 * (a higher cost only moves it later), so a binary search over the candidates finds the first.
 */
function keepingCost(claimed: Pod[], at: number, n: number, perNode: Map<string, number>, now: number, options: PlanOptions): KeepCost {
  const bh = options.behaviour;
  const current = deletionCost(claimed[at]);
  const rerank = (cost: number) => {
    const p = withCost(claimed[at], cost);
    const pods = claimed.slice();
    pods[at] = p;
    const choice = choosePodsToDelete(pods, n, perNode, now, bh);
    return { picked: choice.victims.some((v) => v.facts.pod === p), choice, pod: p };
  };
  const set = new Set<number>([INT32_MAX]);
  for (let i = 0; i < claimed.length; i++) {
    if (i === at) continue;
    const c = deletionCost(claimed[i]);
    set.add(c);
    if (c < INT32_MAX) set.add(c + 1);
  }
  const candidates = [...set].filter((c) => c > current).sort((a, b) => a - b);
  let lo = 0;
  let hi = candidates.length; // first index whose cost keeps the pod; length: none
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rerank(candidates[mid]).picked) lo = mid + 1;
    else hi = mid;
  }
  if (lo < candidates.length) {
    const cost = candidates[lo];
    const before = new Set(rerank(current).choice.victims.map((v) => v.facts.pod));
    const instead = rerank(cost)
      .choice.victims.map((v) => v.facts.pod)
      .filter((p) => !before.has(p))
      .map((p) => p.metadata.name);
    return {
      current,
      cost,
      blockedBy: null,
      message: `a ${POD_DELETION_COST_ANNOTATION} of ${cost} or more (now ${current}) keeps it: re-ranked with ${cost} it is no longer among the ${n} picked (${instead.join(', ')} ${instead.length === 1 ? 'goes' : 'go'} in its place); with ${cost - 1} it still is`,
    };
  }
  // Even the highest cost does not keep it: a criterion before the cost decides.
  const top = rerank(INT32_MAX);
  const victim = top.choice.victims.find((v) => v.facts.pod === top.pod)!;
  const sentence = deleteMessage(victim.facts, victim.reason, top.choice.firstKept, now, victim.comparison?.criterion === 'ReadyUid');
  return {
    current,
    cost: null,
    blockedBy: victim.reason,
    message: `no cost helps: even at the highest cost (${INT32_MAX}) it is picked, because ${sentence}${isBeforeCost(victim.reason) ? '; that is compared before the deletion cost' : ''}`,
  };
}

const isBeforeCost = (r: string) => r === 'Unscheduled' || r === 'Phase' || r === 'NotReady';

/** The highest pod-deletion-cost upstream reads (an int32). */
export const MAX_DELETION_COST = INT32_MAX;
