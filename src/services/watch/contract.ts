// What a watch session hands the dashboard (or the plain stream): plans, log lines and the
// controller's queue metrics, behind one contract. feedOf (./feed.ts) implements it;
// the UI (src/ui) consumes it, and imports these types from here, never the reverse.

import type { DeploymentDecision } from '../../core/deployment/types.js';
import type { ExplainModel } from '../../core/explain-types.js';
import type { Plan, PlanController } from '../../core/plan-types.js';
import type { ControllerKind, Pod, ReplicaSet, ReplicationController, Tombstone } from '../../core/types.js';
import type { HistoryEvent, ReconcileHistory } from '../../history/types.js';
import type { ActionOutcome } from '../../runtime/api.js';

export type Mode = 'read-only' | 'reconcile' | 'snapshot';

/** What a controller held back by its expectations waits for (reconcile mode). */
export type AwaitedWrites = 'creates' | 'deletes' | 'creates and deletes';

/** One re-plan, as the UI receives it. */
export interface PlanFrame {
  plan: Plan;
  /**
   * Reconcile mode: the controllers skipped with ExpectationsPending (by kind/namespace/name),
   * and what they wait for: their own creates or deletes, not yet seen by the informer.
   */
  waiting?: ReadonlyMap<string, AwaitedWrites>;
  /** Wall-clock time the plan was computed (epoch ms). */
  at: number;
  /** Pods in scope in the snapshot the plan was made from. */
  pods: number;
  /** The explain model of one of the plan's controllers: computed on demand, cached per frame. */
  explain(c: PlanController): ExplainModel | null;
  /**
   * The Deployments in scope, each with the deployment controller's decision for its next sync
   * (made once per plan), sorted by namespace then name; null when they could not be read (a 403
   * on deployments.apps).
   */
  deployments: readonly DeploymentView[] | null;
}

/** One ReplicaSet of a Deployment, as the Deployment's rows and detail show it. */
export interface DeploymentReplicaSetView {
  /** Its name; null for the new ReplicaSet the next sync creates when its name is not computed. */
  name: string | null;
  /** deployment.kubernetes.io/revision as an int64 in decimal; null when not one (or not created yet). */
  revision: string | null;
  /** new: the Deployment's current template (the decision's newReplicaSet, or the one it creates); old: any other. */
  role: 'new' | 'old';
  /** The images of its template's containers. */
  images: string[];
  /** spec.replicas; null for a ReplicaSet the next sync creates. */
  desired: number | null;
  /** status.replicas, readyReplicas, availableReplicas. */
  current: number;
  ready: number;
  available: number;
  /** What the next sync does to its spec.replicas: the size it scales (or creates) it to, `delete`, or null (nothing). */
  next: number | 'delete' | null;
}

/** A Deployment in scope: the decision of its next sync, and what the dashboard shows around it. */
export interface DeploymentView {
  decision: DeploymentDecision;
  /** spec.replicas (1 when unset). */
  replicas: number;
  /** The strategy's arithmetic in words (maxSurge and maxUnavailable resolved, the pod bounds). */
  arithmetic: string[];
  /** Its ReplicaSets (claimed by the decision, and the one it creates): the new one first, then by revision, newest first. */
  replicaSets: DeploymentReplicaSetView[];
  /** The decision's status says Progressing=False with reason ProgressDeadlineExceeded. */
  deadlineExceeded: boolean;
}

/** An object the informers watch: a pod, or a controller of a kind of CONTROLLER_KINDS. */
export type WatchedObject = Pod | ReplicaSet | ReplicationController;

/**
 * What happened, as values: an informer's change to a pod or a controller (`resource`: pods,
 * replicasets, …), or what the controller did (reconcile mode). The dashboard words them
 * (src/render/watch-log.ts); an update nobody cares about is worded as nothing. `status: false`:
 * the controller's own status writes, told once already as its actions.
 */
export type WatchNews =
  | { type: 'added' | 'deleted'; resource: string; object: WatchedObject }
  | { type: 'updated'; resource: string; before: WatchedObject; after: WatchedObject; status: boolean }
  | { type: 'action'; kind: ControllerKind; key: string; outcome: ActionOutcome };

export type LogLevel = 'info' | 'change' | 'action' | 'warn' | 'error';

export interface LogEntry {
  at: number;
  level: LogLevel;
  text: string;
}

interface QueueStats {
  name: string; // replicaset | replicationmanager
  depth: number;
  inFlight: number;
  retries: number;
  adds: number;
}

export interface PendingExpectation {
  kind: ControllerKind;
  key: string; // namespace/name
  add: number;
  del: number;
  ageMs: number;
}

/** What the controller's machinery looks like now (reconcile mode). */
export interface QueueInfo {
  queues: QueueStats[];
  expectations: PendingExpectation[];
}

export interface WatchMeta {
  context: string;
  /** The namespace scope as shown: `namespace shop`, `all namespaces`, `snapshot file…`. */
  scope: string;
  mode: Mode;
}

/** One write to a controller or its pods as the history explains it (src/history/replay.ts), for the history pane. */
export interface HistoryRow {
  at: number;
  /** Who wrote it (a user, a field manager, `<unknown user>`). */
  who: string;
  /** The ReplicaSet or ReplicationController controller itself. */
  controller: boolean;
  verb: string;
  pod: string | null;
  reason: string | null;
  /** Controller writes: whether the rules, on the state just before, do it; null for others. */
  predicted: boolean | null;
  message: string;
  /** The write as the history contract has it: what the timeline page (`w` in the pane) is made of. */
  event: HistoryEvent;
}

/** Where the dashboard (or the plain stream) gets its plans, log lines and queue metrics. */
export interface WatchSink {
  frame(frame: PlanFrame): void;
  log(entry: LogEntry): void;
  /** A change or an action, seen at `at` (wall clock). */
  news(at: number, news: WatchNews): void;
  /** A write explained, for the controller `key` (kind/namespace/name); live feeds only. */
  history?(key: string, row: HistoryRow): void;
}

export interface WatchFeed {
  meta: WatchMeta;
  /** false: one static snapshot (-f); true: a live cluster, updated until stopped. */
  live: boolean;
  /** Starts feeding `sink`; resolves after the first plan, rejects when that cannot be made. */
  start(sink: WatchSink, signal: AbortSignal): Promise<void>;
  /** While paused the feed need not re-plan (it catches up on resume). */
  setPaused(paused: boolean): void;
  /** Reconcile mode: the workqueues and expectations now. */
  queue: (() => QueueInfo) | null;
  /** Resolves once everything started by `start` has stopped (after the signal aborted). */
  stopped(): Promise<void>;
  /**
   * Live feeds: the history contract's document around `events` (the rows the pane kept), read as
   * a recording is, `missing` saying what the session did not keep.
   */
  historyDocument?(events: HistoryEvent[], missing: string[]): ReconcileHistory;
}

/** The informers' tombstone (kept under this name for the dashboard's fakes). */
export type TombstoneLike<T> = Tombstone<T>;

/** The part of src/cluster/informer.ts's Informer the dashboard uses. */
export interface InformerLike<T> {
  cache: { list(): T[] };
  addHandlers(h: { add?(obj: T): void; update?(oldObj: T, newObj: T): void; delete?(obj: T | TombstoneLike<T>): void }): void;
  run(signal: AbortSignal): Promise<void>;
  waitForSync(signal?: AbortSignal): Promise<void>;
  hasSynced(): boolean;
}
