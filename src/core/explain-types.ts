// The story of one controller, for `explain`: the plan entry plus the per-pod facts the
// ranking and claim rules looked at, so a renderer never re-derives controller logic.

import type { PlanController, WhatIf } from './plan-types.js';

/**
 * What this sync does to a pod, in one word: the claim decision, or `delete` when the sync
 * deletes it (`adopt+delete`: an orphan adopted and then deleted by the same sync).
 */
export type PodOutcome = PlanController['pods'][number]['decision'] | 'delete' | 'adopt+delete';
import type { ControllerKind, Labels } from './types.js';

export interface ExplainPodRow {
  name: string;
  uid: string;
  decision: PlanController['pods'][number]['decision'];
  reason: PlanController['pods'][number]['reason'];
  message: string;
  node: string | null; // spec.nodeName, null when unscheduled
  phase: string; // status.phase ('' when absent)
  ready: boolean;
  restarts: number; // max over containers (sidecars reported apart)
  sidecarRestarts: number;
  creationTimestamp: string | null;
  ageSeconds: number | null; // at the plan's `now`
  readySeconds: number | null; // time since the Ready transition, when ready and known
  deletionCost: number; // effective cost (0 when the annotation is absent or invalid)
  deletionCostAnnotation: string | null; // the raw annotation, to show an invalid one
  colocated: number; // rank: active related pods on the same node (getPodsRankedByRelatedPodsOnSameNode)
  deleteIndex: number | null; // 0-based position in the deletion order, null when it stays
  outcome: PodOutcome;
}

interface ExplainOwner {
  kind: string;
  name: string;
  uid: string;
  found: boolean | null; // null when the owner's kind is not in the snapshot (e.g. Deployment)
}

export interface ExplainModel {
  kind: ControllerKind;
  namespace: string;
  name: string;
  now: string;
  kubernetesVersion: string;
  selector: string; // rendered like kubectl: app=web,tier in (a,b)
  selectorError: string | null;
  templateLabels: Labels;
  minReadySeconds: number;
  generation: number; // as planned (a what-if scale bumps it)
  /** The object's own spec.replicas and metadata.generation, which a what-if does not change. */
  object: { replicas: number; generation: number };
  /** The what-ifs the story is told under (null: the input as it is). */
  whatIf: WhatIf | null;
  owner: ExplainOwner | null; // the controller's own controller reference (a Deployment, usually)
  siblings: string[]; // other ReplicaSets with the same owner, whose pods count for colocation
  pods: ExplainPodRow[]; // every pod of the plan entry, in plan order
  statusBefore: {
    replicas: number;
    fullyLabeledReplicas: number;
    readyReplicas: number;
    availableReplicas: number;
    observedGeneration: number | null;
    terminatingReplicas: number | null;
    conditions: { type: string; status: string; reason?: string; message?: string }[];
  };
  plan: PlanController;
}
