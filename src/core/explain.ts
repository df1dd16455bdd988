// The explain model of one controller: its plan entry plus every fact the claim and ranking rules
// looked at, computed here once so renderers only lay it out.

import { desiredReplicas, minReadySeconds, namespaceOf, isControllerKind } from './controller.js';
import type { ExplainModel, ExplainPodRow, PodOutcome } from './explain-types.js';
import type { PlanController, PodDecision, WhatIf } from './plan-types.js';
import type { ClusterPlanner } from './plan.js';
import { controllerRef, POD_DELETION_COST_ANNOTATION, parseDeletionCost } from './pod.js';
import { rankFacts, type RankFacts } from './rank.js';
import { currentStatus } from './status.js';
import type { SyncDecision } from './sync-decision.js';
import { formatParsedTime, formatTime } from './time.js';
import type { Controller, Pod } from './types.js';

/** One word for what the sync does to a pod: deleting wins over keeping (and follows an adoption). */
export function podOutcome(decision: PodDecision, deleted: boolean): PodOutcome {
  if (!deleted) return decision;
  return decision === 'adopt' ? 'adopt+delete' : 'delete';
}

/**
 * The story of `original` from its sync's decision and that decision's plan entry (the plan's
 * projection of it), both made once by the planner; `original` is the object as read (before a what-if).
 */
export function buildExplainModel(
  planner: ClusterPlanner,
  original: Controller,
  detail: SyncDecision,
  entry: PlanController,
  kubernetesVersion: string,
  whatIf: WhatIf | null = null,
): ExplainModel {
  const c = detail.controller;
  const nowMs = detail.now;
  const perNode = detail.perNode.size ? detail.perNode : planner.relatedPodsPerNode(c);
  const deleteIndex = new Map(entry.delete.map((d, i) => [d.uid, i]));
  // the facts the deletion ranking computed for the claimed pods (same pods, counts and now); the others' here
  const ranked = new Map<Pod, RankFacts>((detail.deletion?.ordered ?? []).map((f) => [f.pod, f]));
  const rows: ExplainPodRow[] = detail.claims.map((d, i) => {
    const f = ranked.get(d.pod) ?? rankFacts(d.pod, i, perNode.get(d.pod.spec?.nodeName ?? '') ?? 0, nowMs);
    const raw = d.pod.metadata.annotations?.[POD_DELETION_COST_ANNOTATION] ?? null;
    return {
      name: d.pod.metadata.name,
      uid: d.pod.metadata.uid,
      decision: d.decision,
      reason: d.reason,
      message: d.message,
      node: f.node === '' ? null : f.node,
      phase: f.phase,
      ready: f.ready,
      restarts: f.restarts,
      sidecarRestarts: f.sidecarRestarts,
      creationTimestamp: f.created === null ? null : formatParsedTime(d.pod.metadata.creationTimestamp, f.created),
      ageSeconds: f.created === null ? null : Math.max(0, (nowMs - f.created) / 1000),
      readySeconds: f.readyTime === null ? null : Math.max(0, (nowMs - f.readyTime) / 1000),
      deletionCost: parseDeletionCost(raw).cost,
      deletionCostAnnotation: raw,
      colocated: f.rank,
      deleteIndex: deleteIndex.get(d.pod.metadata.uid) ?? null,
      outcome: podOutcome(d.decision, deleteIndex.has(d.pod.metadata.uid)),
    };
  });
  rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const ownerRef = controllerRef(c);
  const before = currentStatus(original);
  const ownerFound = ownerRef ? (isControllerKind(ownerRef.kind) ? planner.controllers.some((x) => x.metadata.uid === ownerRef.uid) : null) : null;
  return {
    kind: c.kind,
    namespace: namespaceOf(c),
    name: c.metadata.name,
    now: formatTime(nowMs),
    kubernetesVersion,
    selector: detail.selector ? detail.selector.toString() || '(empty: matches every pod)' : '(invalid)',
    selectorError: detail.selectorError,
    templateLabels: { ...(c.spec.template?.metadata?.labels ?? {}) },
    minReadySeconds: minReadySeconds(c),
    generation: c.metadata.generation ?? 0,
    object: { replicas: desiredReplicas(original), generation: original.metadata.generation ?? 0 },
    whatIf,
    owner: ownerRef ? { kind: ownerRef.kind, name: ownerRef.name, uid: ownerRef.uid, found: ownerFound } : null,
    siblings: planner
      .siblings(c)
      .map((s) => s.metadata.name)
      .sort(),
    pods: rows,
    statusBefore: {
      replicas: before.replicas,
      fullyLabeledReplicas: before.fullyLabeledReplicas,
      readyReplicas: before.readyReplicas,
      availableReplicas: before.availableReplicas,
      observedGeneration: original.status?.observedGeneration ?? null,
      terminatingReplicas: before.terminatingReplicas,
      conditions: before.conditions.map((x) => ({ type: x.type, status: x.status, reason: x.reason, message: x.message })),
    },
    plan: entry,
  };
}
