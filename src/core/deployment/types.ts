// The slice of apps/v1 Deployment the deployment controller reads, and the decision one sync of
// upstream's deployment controller (pkg/controller/deployment, syncDeployment) makes: the writes
// in upstream's order, the first status write, the requeue. Every command reads this one decision;
// the runtime only carries its writes out.

import type { Deployment, DeploymentCondition, DeploymentStatus, DeploymentStrategyType, Pod, ReplicaSet } from '../types.js';
import type { Behaviour } from '../versions.js';

/** What one sync reads: upstream's informer caches for one Deployment key. */
export interface DeploymentSyncInput {
  deployment: Deployment;
  /** The namespace's ReplicaSets, as the informer lists them; the sync claims its own. */
  replicaSets: ReplicaSet[];
  /**
   * The namespace's pods. Only Recreate reads pods (oldPodsRunning); null when they are not known,
   * then old pods are judged by the ReplicaSets' status.replicas alone.
   */
  pods: Pod[] | null;
  nowMs: number;
  behaviour: Behaviour;
}

type DeploymentSkipReason = 'DeploymentDeleting' | 'EmptySelector' | 'InvalidSelector';

/** A write to a ReplicaSet's spec.replicas, as the contract lists it. */
export type DeploymentAction =
  | { verb: 'create'; replicaSet: string | null; replicas: number; message: string }
  | { verb: 'scale'; replicaSet: string; from: number; to: number; message: string }
  | { verb: 'delete'; replicaSet: string; message: string };

/** The Deployment status as the contract prints it. */
export interface DeploymentStatusOut {
  replicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  unavailableReplicas: number;
  terminatingReplicas?: number;
  observedGeneration: number;
  collisionCount: number | null;
  conditions: DeploymentCondition[];
}

/** An Event upstream's eventRecorder records on the Deployment once the write that carries it succeeded. */
export interface DeploymentEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/**
 * One API request of the sync, in order, as the runtime carries it out. `conflict`: upstream
 * sends it with an object its cache holds at an older resourceVersion, the API server answers
 * 409 and the sync ends there (an error: a rate-limited requeue), unless writes follow it: then
 * upstream swallowed the error (reconcileOldReplicaSets) and went on. `truncateName`: the
 * created ReplicaSet's name is cut to fit 253 characters (Behaviour.replicaSetNameTruncated).
 * `event`: what upstream records once the write succeeded (a create or scale's ScalingReplicaSet),
 * naming a ReplicaSet created in this sync as its placeholder name does.
 */
export type DeploymentWrite =
  | { kind: 'adoptReplicaSet'; name: string }
  | { kind: 'releaseReplicaSet'; name: string }
  | { kind: 'createReplicaSet'; replicaSet: ReplicaSet; hashKnown: boolean; truncateName: boolean; event: DeploymentEvent | null }
  | { kind: 'updateReplicaSet'; replicaSet: ReplicaSet; from: number; to: number; conflict: boolean; event: DeploymentEvent | null }
  | { kind: 'deleteReplicaSet'; name: string }
  | { kind: 'updateDeploymentStatus'; status: DeploymentStatus; annotations: Record<string, string>; conflict: boolean }
  /**
   * rollback's updateDeploymentAndClearRollbackTo: a PUT of the Deployment (its template and
   * annotations as the rollback left them, the rollback annotation gone). `warning`: the Event
   * upstream records before sending it (the rollback given up, or nothing to roll back to);
   * `event`: the one it records once it succeeded (DeploymentRollback).
   */
  | { kind: 'updateDeployment'; deployment: Deployment; conflict: boolean; warning: DeploymentEvent | null; event: DeploymentEvent | null };

export interface DeploymentDecision {
  namespace: string;
  name: string;
  uid: string;
  strategy: DeploymentStrategyType;
  paused: boolean;
  inSync: boolean;
  skip: { reason: DeploymentSkipReason; message: string } | null;
  newReplicaSet: string | null;
  actions: DeploymentAction[];
  status: DeploymentStatusOut;
  statusChanged: boolean;
  requeueAfterSeconds: number | null;
  /** addition: every API request of the sync, in order (also annotation-only and 409 ones). */
  writes: DeploymentWrite[];
  /** addition: what the sync writes besides actions (revision, annotations), and why it waits, in words. */
  notes: string[];
  /** addition: the error the sync ends with (then a rate-limited requeue), else null. */
  error: string | null;
  /** addition: which branch of syncDeployment ran. */
  path: 'deleting' | 'empty-selector' | 'invalid-selector' | 'paused' | 'rollback' | 'scaling' | 'rolling' | 'recreate' | 'unsupported';
}
