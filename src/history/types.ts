// The history contract (`history -o json|yaml`): ../shared/history-format.md, field for field.

import type { ControllerKind } from '../core/types.js';
import type { AuditFormat } from '../input/audit/formats/index.js';

export const HISTORY_API_VERSION = 'rs-reconcile/v1alpha1';

export type HistoryVerb = 'create' | 'delete' | 'adopt' | 'release' | 'status' | 'scale' | 'update' | 'patch';

export interface HistoryControllerRef {
  kind: ControllerKind;
  namespace: string;
  name: string;
}

export interface HistoryEvent {
  time: string;
  actor: { user: string; controller: boolean };
  verb: HistoryVerb;
  controller: HistoryControllerRef | null;
  pod: string | null;
  /** delete: the plan's delete reasons; adopt: OrphanMatching; release: OwnedNotMatching; create: TooFewReplicas. */
  reason: string | null;
  message: string;
  /** Controller writes: whether one sync planned on the state just before it does this write. */
  predicted: boolean | null;
  /**
   * Controller writes: the writes that made this sync act, nearest first, back to the first write
   * by someone who is not a controller; null when the log shows none (and for users' writes).
   */
  cause: CauseStep[] | null;
}

/** One write in a cause chain: who changed what the controller counts, and how. */
export interface CauseStep {
  time: string;
  user: string;
  /** As events[].verb for users' writes. */
  verb: HistoryVerb;
  object: { kind: string; namespace: string; name: string };
  /** What changed that the controller counts: spec.replicas, spec.selector, spec.template, metadata.labels, status.phase, a Ready condition, metadata.deletionTimestamp, the object itself (created / deleted), … */
  field: string;
  /** Before → after, in words ("4 → 3", "nginx:1.25 → nginx:1.26", "created", "deleted"). */
  change: string;
}

/**
 * The contract's names of the inputs a history is read from: the audit exports' names (each
 * export's module under src/input/audit/formats/, listed in docs/history-format.md), a cluster's
 * Events and a recording.
 */
type CoverageFormat = AuditFormat | 'events' | 'recording';

/** What the input could and could not tell. */
export interface HistoryCoverage {
  format: CoverageFormat;
  /** Entries whose bodies were cut (and are read without them). */
  truncated: number;
  /** Entries seen twice (same auditID), counted once. */
  duplicates: number;
  /** Kinds of writes the source lacks, in words. */
  missing: string[];
}

export interface ReconcileHistory {
  apiVersion: typeof HISTORY_API_VERSION;
  kind: 'ReconcileHistory';
  source: 'audit-log' | 'recording';
  kubernetesVersion: string;
  from: string | null;
  to: string | null;
  events: HistoryEvent[];
  coverage: HistoryCoverage;
}

/**
 * One write the API server answered, as the history reads it from an audit `Event` (or a
 * recording): what was asked, by whom, and the bodies when the log has them.
 */
export interface ApiWrite {
  /** When the server received it (the audit's requestReceivedTimestamp, as logged). */
  time: string;
  /** When it finished (stageTimestamp), where the log tells it apart from `time`; absent where one time an entry is logged (GKE). */
  finished?: string;
  user: string;
  userAgent: string;
  /**
   * The Kubernetes minor (`1.32`) whose rules the writer ran, where the input says it apart from
   * the User-Agent (a recording's header: the server's version, the rules rs-reconcile ran).
   */
  rules?: string;
  verb: 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  resource: 'pods' | 'replicasets' | 'replicationcontrollers' | 'deployments';
  subresource: string | null;
  namespace: string;
  /** Absent for a create with generateName, and for deletecollection. */
  name: string | null;
  code: number;
  /** Whether the log holds the bodies (level RequestResponse); Metadata-level writes have none. */
  bodies: boolean;
  /** The log entry was cut (audit.k8s.io/truncated): bodies lost, and the answer too when `code` is -1. */
  truncated?: boolean;
  request: Record<string, any> | null;
  response: Record<string, any> | null;
}

/**
 * A write of a controller that the API server refused (a 409 on an adoption, a 422): no event and
 * no change to the state (the contract), but part of a pod's story.
 */
export interface RefusedWrite {
  time: string;
  user: string;
  verb: HistoryVerb;
  controller: HistoryControllerRef | null;
  pod: string | null;
  code: number;
  message: string;
}

/** How many writes of each kind a history holds (the line under the table). */
export interface HistoryCounts {
  events: number;
  controller: number;
  predicted: number;
  notPredicted: number;
  unknown: number;
}
