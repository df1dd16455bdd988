// The reconcile plan: the public machine-readable contract of `../shared/plan-format.md`.
// Field names and meanings are fixed; fields may be added (those are marked "addition").

import type { PlanDeployment } from './deployment/plan.js';
import type { ControllerKind, ReplicaSetCondition } from './types.js';

export type { PlanDeployment };

export const PLAN_API_VERSION = 'rs-reconcile/v1alpha1';

export type PodDecision = 'keep' | 'adopt' | 'release' | 'ignore';

export type PodReason = 'OwnedMatching' | 'OrphanMatching' | 'OwnedNotMatching' | 'OwnedByOther' | 'Inactive' | 'Terminating' | 'ControllerDeleting';

export type DeleteReason =
  | 'Unscheduled'
  | 'Phase'
  | 'NotReady'
  | 'LowerDeletionCost'
  | 'MoreOnSameNode'
  | 'ReadyShorter'
  | 'MoreRestarts'
  | 'Newer'
  | 'UidOrder'
  | 'Tie'
  | 'ScaleToZero';

export type SkipReason = 'ControllerDeleting' | 'InvalidSelector' | 'ExpectationsPending';

export interface PlanPod {
  name: string;
  uid: string;
  decision: PodDecision;
  reason: PodReason;
  message: string;
}

export interface PlanDelete {
  name: string;
  uid: string;
  reason: DeleteReason;
  message: string;
}

export interface PlanStatus {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  observedGeneration: number;
  terminatingReplicas?: number; // only where the emulated version writes it
  conditions: ReplicaSetCondition[];
}

type WarningCode =
  | 'InvalidSelector'
  | 'OverlappingSelectors'
  | 'TemplateLabelsDoNotMatchSelector'
  | 'OwnerNotFound'
  | 'BurstCapped'
  | 'NoTemplateLabels'
  | 'ContestedAdoption';

/** addition: what a careful reader should know about this controller (never changes decisions). */
export interface PlanWarning {
  code: WarningCode;
  message: string;
  pods?: string[];
  /** OverlappingSelectors, ContestedAdoption: the other controller (same namespace). */
  controller?: { kind: ControllerKind; name: string };
}

export interface PlanController {
  kind: ControllerKind;
  namespace: string;
  name: string;
  uid: string;
  inSync: boolean;
  skip: { reason: SkipReason; message: string } | null;
  replicas: { desired: number; current: number };
  pods: PlanPod[];
  create: { count: number; batches: number[] };
  delete: PlanDelete[];
  status: PlanStatus;
  statusChanged: boolean;
  requeueAfterSeconds: number | null;
  warnings: PlanWarning[]; // addition
}

export interface PlanSummary {
  controllers: number;
  inSync: number;
  adopt: number;
  release: number;
  create: number;
  delete: number;
  statusUpdates: number;
}

/**
 * addition: the "as if" a plan was computed under, which no object in the input says. A plan with
 * one describes a hypothetical state: it is for reading, never for `reconcile --plan`.
 */
export interface WhatIf {
  /** --replicas N: every controller of the plan planned as if scaled to N. */
  replicas?: number;
  /** --now on a live cluster: planned as if the clock said this (a snapshot's --now is its time). */
  now?: string;
}

export interface Plan {
  apiVersion: typeof PLAN_API_VERSION;
  kind: 'ReconcilePlan';
  now: string;
  kubernetesVersion: string;
  source: 'file' | 'cluster';
  /** addition: null (or absent, in plans of other writers) when the plan is of the input as it is. */
  whatIf?: WhatIf | null;
  summary: PlanSummary;
  controllers: PlanController[];
  /**
   * What one sync of the deployment controller does to each Deployment (plan-format.md
   * "Deployments"): present only where the input holds Deployments.
   */
  deployments?: PlanDeployment[];
}
