// `explain pod/NAME -o json`: the PodExplanation of ../shared/plan-format.md ("One pod"). The
// contract's fields are fixed; fields marked "addition" are this tool's (the contract allows new
// fields): why the pod is orphaned, and its place in its owner's deletion order.

import type { ControllerKind } from './types.js';
import type { DeleteReason, PLAN_API_VERSION, PodDecision, PodReason } from './plan-types.js';

interface PodExplanationPod {
  namespace: string;
  name: string;
  uid: string;
  phase: string | null;
  ready: boolean;
  node: string | null; // null: not scheduled
}

/** The pod's controller ownerReference; found: that object is in the input. */
export interface PodExplanationOwner {
  kind: string;
  name: string;
  uid: string;
  found: boolean;
}

export interface PodExplanationController {
  kind: ControllerKind;
  namespace: string;
  name: string;
  uid: string; // addition
  decision: PodDecision;
  reason: PodReason;
  message: string;
  /** Its place in this controller's `delete` list (1 = deleted first), as the plan has it. */
  delete: null | { order: number; reason: DeleteReason; message: string };
}

/**
 * How the pod lost (or is losing) its controller, from the evidence in the input:
 * - OwnerDeletedOrphaned: no controller reference, and no controller has the name its
 *   generateName points to (a `delete --cascade=orphan` removes the references and the owner);
 * - Released: no controller reference, and the controller its generateName names exists but its
 *   selector no longer matches the pod (a release removes only the reference);
 * - OwnerRecreated: its controller reference names a controller of that kind and name that
 *   exists under another uid;
 * - OwnerNotFound: its controller reference names a controller that is not in the input;
 * - Unknown: no controller reference and no evidence of where it came from.
 */
type OrphanReason = 'OwnerDeletedOrphaned' | 'Released' | 'OwnerRecreated' | 'OwnerNotFound' | 'Unknown';

/** addition */
export interface PodOrphan {
  reason: OrphanReason;
  /** True when the reason is inferred from circumstantial evidence (see `evidence`). */
  likely: boolean;
  message: string;
  evidence: string[];
}

/**
 * What a pod-deletion-cost annotation would change. `blockedBy` says why no cost is given:
 * NotPicked (it is not deleted in this case), ScaleToZero (every pod goes), GateOff (the
 * PodDeletionCost gate is off), or the ranking criterion that decides before the cost is looked at.
 */
export interface KeepCost {
  current: number; // the cost upstream reads now (0 without a valid annotation)
  cost: number | null; // the smallest integer cost at which it is no longer picked
  blockedBy: null | 'NotPicked' | 'ScaleToZero' | 'GateOff' | DeleteReason;
  message: string;
}

/** One case of the deletion order: as the controller is now, or with --replicas N. addition */
export interface DeletionCase {
  replicas: number; // desired replicas in this case
  pods: number; // active pods the controller counts after adopt/release
  deletes: number; // pods this sync deletes (after the burst cap)
  /** Place in the full ranking of those pods (1 = the first to go), upstream's comparator. */
  rank: number;
  picked: boolean;
  /** It is picked once the controller is scaled to this many replicas or fewer. */
  pickedAtOrBelow: number;
  keep: KeepCost;
}

/** addition: the pod's place in the deletion order of the controller that counts it. */
export interface PodDeletion {
  kind: ControllerKind;
  namespace: string;
  name: string;
  now: DeletionCase;
  whatIf: DeletionCase | null; // with --replicas N
}

export interface PodExplanation {
  apiVersion: typeof PLAN_API_VERSION;
  kind: 'PodExplanation';
  now: string;
  kubernetesVersion: string;
  source: 'file' | 'cluster';
  pod: PodExplanationPod;
  owner: PodExplanationOwner | null;
  /** Every controller whose plan lists the pod, with the plan's entry for it (--replicas applied). */
  controllers: PodExplanationController[];
  orphan: PodOrphan | null; // addition
  deletion: PodDeletion | null; // addition
  /** addition: what the text view says that the fields above do not (e.g. --replicas had nothing to scale). */
  notes: string[];
}
