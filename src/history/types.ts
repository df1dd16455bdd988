// The history contract (`history -o json|yaml`): ../shared/history-format.md, field for field.

import type { ControllerKind } from '../core/types.js';

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
}

export interface ReconcileHistory {
  apiVersion: typeof HISTORY_API_VERSION;
  kind: 'ReconcileHistory';
  source: 'audit-log' | 'recording';
  kubernetesVersion: string;
  from: string | null;
  to: string | null;
  events: HistoryEvent[];
}

/**
 * One write the API server answered, as the history reads it from an audit `Event` (or a
 * recording): what was asked, by whom, and the bodies when the log has them.
 */
export interface ApiWrite {
  /** When the server received it (the audit's requestReceivedTimestamp, as logged). */
  time: string;
  user: string;
  userAgent: string;
  verb: 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';
  resource: 'pods' | 'replicasets' | 'replicationcontrollers';
  subresource: string | null;
  namespace: string;
  /** Absent for a create with generateName, and for deletecollection. */
  name: string | null;
  code: number;
  /** Whether the log holds the bodies (level RequestResponse); Metadata-level writes have none. */
  bodies: boolean;
  request: Record<string, any> | null;
  response: Record<string, any> | null;
}

/** How many writes of each kind a history holds (the line under the table). */
export interface HistoryCounts {
  events: number;
  controller: number;
  predicted: number;
  notPredicted: number;
  unknown: number;
}
