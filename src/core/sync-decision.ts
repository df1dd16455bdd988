// The one decision of one sync (syncReplicaSet) and what is read from it. The planner
// (plan.ts) decides; `explain`, `diff`, `history` and the sync (src/controller/sync.ts) read the
// decision; the plan's entry of a controller is its projection (planControllerOf), which
// computes nothing the decision has not decided.

import type { ClaimDecision } from './claim.js';
import { desiredReplicas, namespaceOf } from './controller.js';
import type { DeletionChoice } from './manage.js';
import { deleteMessage, type Colocation } from './messages.js';
import type { PlanController, PlanDelete, PlanWarning, SkipReason } from './plan-types.js';
import type { Selector } from './selector.js';
import { calculateStatus, statusNeedsWrite, writtenStatus, type ComputedStatus } from './status.js';
import type { Controller, Pod } from './types.js';
import type { Behaviour } from './versions.js';

/** Why a sync manages no replicas: the controller is being deleted, its expectations are pending, or its selector is invalid. */
export interface SyncSkip {
  reason: SkipReason;
  message: string;
}

/**
 * The one decision of one sync (syncReplicaSet), computed once at one `now` on the state the sync sees.
 * `explain` and `diff` render it; the sync (src/controller/sync.ts) only carries it out: the
 * claims in order, then the creates or the ranked deletions, then the status write, then the
 * requeue. Nothing downstream ranks, counts or computes a status again.
 */
export interface SyncDecision {
  controller: Controller; // as planned (with a what-if scale applied)
  now: number; // the sync's one evaluation time, epoch ms
  selector: Selector | null;
  selectorError: string | null;
  /** Why the sync manages no replicas; null when it does (expectations satisfied, the controller not deleting). */
  skip: SyncSkip | null;
  claims: ClaimDecision[]; // in cache order
  claimed: Pod[]; // claimed pods in cache order, before creates/deletes
  /** The pods counted as the controller's: the claimed ones (invalid selector, never listed: the active pods it controls). */
  currentReplicas: number;
  /** Terminating pods counted into the status (null where the emulated version does not). */
  terminating: number | null;
  create: { count: number; batches: number[] };
  perNode: Map<string, number>; // colocation counts used by the ranking
  /** Whose pods the ranking counted on a node, as the delete sentences say it. */
  colocation: Colocation;
  deletion: DeletionChoice | null; // victims in deletion order
  /** The status written when manageReplicas succeeds (observedGeneration set when written). */
  status: ComputedStatus;
  statusChanged: boolean;
  /** An error manageReplicas is known to meet before any request (a template without labels). */
  manageError: string | null;
  requeueAfterSeconds: number | null;
  /** The advisories (plan-warnings.ts), then manageReplicas' own warnings. */
  warnings: PlanWarning[];
}

/** Whether the sync manages replicas (rsNeedsSync and the controller not being deleted; a valid selector). */
export const managesReplicas = (d: SyncDecision): boolean => d.skip === null;

/** The pods of a decision the sync deletes, in order. */
export const victimsOf = (d: SyncDecision): Pod[] => (d.deletion?.victims ?? []).map((v) => v.facts.pod);

/**
 * Whether the sync writes nothing: no claim to patch, no pod to create or delete, no status. A
 * controller with an invalid selector never is: what it should do is not done, and nothing will
 * do it until the selector is fixed (diff exits 1 for it).
 */
export function isInSync(d: SyncDecision): boolean {
  if (d.skip?.reason === 'InvalidSelector') return false;
  return !d.statusChanged && d.create.count === 0 && victimsOf(d).length === 0 && !d.claims.some((p) => p.decision === 'adopt' || p.decision === 'release');
}

/** The deletions of a decision in deletion order, each with the sentence of its reason. */
export function deletesOf(d: SyncDecision): PlanDelete[] {
  const deletion = d.deletion;
  if (!deletion) return [];
  return deletion.victims.map((v) => ({
    name: v.facts.pod.metadata.name,
    uid: v.facts.uid,
    reason: v.reason,
    message: deleteMessage(v.facts, v.reason, deletion.firstKept, d.now, v.comparison?.criterion === 'ReadyUid', d.colocation),
  }));
}

/** The plan's entry of a controller (plan-format.md `controllers[]`): the decision, as the contract prints it. */
export function planControllerOf(d: SyncDecision): PlanController {
  const c = d.controller;
  return {
    kind: c.kind,
    namespace: namespaceOf(c),
    name: c.metadata.name,
    uid: c.metadata.uid,
    inSync: isInSync(d),
    skip: d.skip,
    replicas: { desired: desiredReplicas(c), current: d.currentReplicas },
    pods: sortedByName(
      d.claims.map((p) => ({ name: p.pod.metadata.name, uid: p.pod.metadata.uid, decision: p.decision, reason: p.reason, message: p.message })),
    ),
    create: d.create,
    delete: deletesOf(d),
    status: writtenStatus(d.status),
    statusChanged: d.statusChanged,
    requeueAfterSeconds: d.requeueAfterSeconds,
    warnings: d.warnings,
  };
}

/** What the sync writes when manageReplicas failed with `message` (syncReplicaSet: calculateStatus gets the manage error, same `now`). */
export function statusAfterManageError(d: SyncDecision, message: string, bh: Behaviour): { status: ComputedStatus; write: boolean } {
  const c = d.controller;
  const status = calculateStatus(c, d.claimed, d.terminating, message, d.now, bh);
  const write = statusNeedsWrite(c, status);
  if (write) status.observedGeneration = c.metadata.generation ?? 0;
  return { status, write };
}

/** Sorted by name; a list already in order (the usual case: pods listed by name) is kept as is. */
function sortedByName<T extends { name: string }>(xs: T[]): T[] {
  for (let i = 1; i < xs.length; i++) {
    if (xs[i - 1].name > xs[i].name) return xs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  return xs;
}
