// The ReplicaSet controller (and, as upstream, the same code for ReplicationControllers): event
// handlers that only compute keys and enqueue (addPod, updatePod, …), a rate-limited workqueue, workers
// that run one level-based sync per key (syncReplicaSet) with expectations (UIDTrackingControllerExpectations).

import { controllerKindInfo, emptySnapshot, minReadySeconds, namespaceOf, type ControllerKindInfo } from '../core/controller.js';
import type { Clock } from '../runtime/clock.js';
import { UIDTrackingControllerExpectations } from '../runtime/expectations.js';
import { ClusterPlanner } from '../core/plan.js';
import { controllerRef, isPodReady } from '../core/pod.js';
import { defaultControllerRateLimiter } from '../runtime/rate-limiter.js';
import { labelSelectorAsSelector } from '../core/selector.js';
import { isInSync } from '../core/sync-decision.js';
import type { Controller, ControllerKind, ControllerObject, OwnerReference, Pod, Tombstone } from '../core/types.js';
import type { Behaviour } from '../core/versions.js';
import { WorkQueue } from '../runtime/workqueue.js';
import { runWorker, type WorkerState } from '../runtime/worker.js';
import type { ActionOutcome, ControllerAPI } from '../runtime/api.js';
import { InformerCandidatePods, type PodListers } from './candidate-pods.js';
import { syncController, type SyncOutcome } from './sync.js';
import { metaNamespaceKey } from '../core/object-key.js';

/** What the controller reads from the informer caches (each an index lookup). */
export interface Listers {
  pods: PodListers;
  controllers: {
    get(ns: string, name: string): ControllerObject | undefined;
    inNamespace(ns: string): ControllerObject[];
    all(): ControllerObject[];
    /** Controllers whose controller reference has this uid (a Deployment's ReplicaSets). */
    ownedBy(ownerUid: string): ControllerObject[];
  };
}

export interface ControllerLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  v(level: number): { info(msg: string, fields?: Record<string, unknown>): void };
}

/**
 * The object a delete event carries: itself, or a tombstone's last known state. null (logged, as
 * upstream's "couldn't get object from tombstone") when it carries none.
 */
export function deletedObject<T extends { metadata?: unknown }>(obj: T | Tombstone<T>, log: ControllerLogger): T | null {
  const o = 'tombstone' in obj ? obj.obj : obj;
  if (o?.metadata) return o;
  log.error('could not get object from tombstone', { obj });
  return null;
}

export interface ControllerDeps {
  kind: ControllerKind;
  /** The registry entry of `kind` (default: CONTROLLER_KINDS's). */
  info?: ControllerKindInfo;
  listers: Listers;
  api: ControllerAPI;
  behaviour: Behaviour;
  burstReplicas: number;
  clock: Clock;
  log: ControllerLogger;
  /** Only controllers for which this holds are synced (-l); events of others are ignored. */
  inScope?: (obj: ControllerObject) => boolean;
  onSync?: (key: string, outcome: SyncOutcome, ms: number) => void;
  onAction?: (key: string, a: ActionOutcome) => void;
  queueMetrics?: ConstructorParameters<typeof WorkQueue<string>>[0]['onMetric'];
}

const toController = (kind: ControllerKind, obj: ControllerObject): Controller => controllerKindInfo(kind).toController(obj);

export class ReplicaSetController {
  readonly queue: WorkQueue<string>;
  readonly expectations: UIDTrackingControllerExpectations;
  readonly info: ControllerKindInfo;
  private readonly work: WorkerState = { inFlight: 0, stopping: false };

  constructor(private readonly deps: ControllerDeps) {
    this.info = deps.info ?? controllerKindInfo(deps.kind);
    if (this.info.kind !== deps.kind) throw new Error(`the ${deps.kind} controller was given the registry entry of ${this.info.kind}`);
    this.queue = new WorkQueue<string>({
      clock: deps.clock,
      rateLimiter: defaultControllerRateLimiter<string>(deps.clock),
      name: this.info.queueName,
      onMetric: deps.queueMetrics,
    });
    this.expectations = new UIDTrackingControllerExpectations(deps.clock, {
      // upstream logs the keys it clobbers beside the message
      onError: (message, context) => deps.log.error(message, context),
    });
  }

  get kind(): ControllerKind {
    return this.deps.kind;
  }

  busy(): boolean {
    return this.work.inFlight > 0 || this.queue.len() > 0;
  }

  // ---- keys and lookups -------------------------------------------------------------------

  private keyOf(obj: ControllerObject): string {
    return metaNamespaceKey(namespaceOf(obj), obj.metadata.name);
  }

  private enqueue(obj: ControllerObject): void {
    if (this.deps.inScope && !this.deps.inScope(obj)) return;
    this.queue.add(this.keyOf(obj));
  }

  private enqueueAfter(obj: ControllerObject, ms: number): void {
    if (this.deps.inScope && !this.deps.inScope(obj)) return;
    this.queue.addAfter(this.keyOf(obj), ms);
  }

  /** resolveControllerRef: same kind, in the cache, same uid. */
  private resolveControllerRef(ns: string, ref: OwnerReference): ControllerObject | undefined {
    if (ref.kind !== this.deps.kind) return undefined;
    const c = this.deps.listers.controllers.get(ns, ref.name);
    return c && c.metadata.uid === ref.uid ? c : undefined;
  }

  /** getPodReplicaSets: controllers whose valid, non-empty selector matches the pod's labels. */
  private podControllers(pod: Pod): ControllerObject[] {
    const labels = pod.metadata.labels;
    if (!labels || Object.keys(labels).length === 0) return [];
    const out: ControllerObject[] = [];
    for (const obj of this.deps.listers.controllers.inNamespace(namespaceOf(pod))) {
      const sel = labelSelectorAsSelector(this.info.toController(obj).spec.selector);
      if (!sel.ok || sel.selector.nothing || sel.selector.everything) continue;
      if (sel.selector.matches(labels)) out.push(obj);
    }
    if (out.length > 1) {
      this.deps.log.error(`user error: more than one ${this.deps.kind} is selecting pods with labels`, {
        pod: metaNamespaceKey(namespaceOf(pod), pod.metadata.name),
        labels,
        controllers: out.map((c) => c.metadata.name),
      });
    }
    return out;
  }

  // ---- event handlers (upstream's addPod, updatePod, …): compute keys, enqueue, nothing more -----------------------------

  addController = (obj: ControllerObject): void => {
    this.deps.log.v(4).info(`Adding ${this.deps.kind}`, { key: this.keyOf(obj) });
    this.enqueue(obj);
  };

  updateController = (old: ControllerObject, cur: ControllerObject): void => {
    if (old.metadata.uid !== cur.metadata.uid) {
      // deleted and re-created under the same name between two observations
      this.deleteController({ tombstone: true, key: this.keyOf(old), obj: old });
    }
    this.enqueue(cur);
  };

  deleteController = (obj: ControllerObject | Tombstone<ControllerObject>): void => {
    const c = deletedObject(obj, this.deps.log);
    if (!c) return;
    const key = this.keyOf(c);
    this.deps.log.v(4).info(`Deleting ${this.deps.kind}`, { key });
    this.expectations.deleteExpectations(key);
    this.queue.add(key);
  };

  addPod = (pod: Pod): void => {
    if (pod.metadata.deletionTimestamp) {
      // a restarted controller must not count a terminating pod as a creation
      this.deletePod(pod);
      return;
    }
    const ref = controllerRef(pod);
    if (ref) {
      const c = this.resolveControllerRef(namespaceOf(pod), ref);
      if (!c) return;
      this.expectations.creationObserved(this.keyOf(c));
      this.enqueue(c);
      return;
    }
    for (const c of this.podControllers(pod)) this.enqueue(c);
  };

  updatePod = (old: Pod, cur: Pod): void => {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return; // periodic resync
    const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(cur.metadata.labels ?? {});
    if (cur.metadata.deletionTimestamp) {
      this.deletePod(cur);
      if (labelsChanged) this.deletePod(old);
      return;
    }
    const curRef = controllerRef(cur);
    const oldRef = controllerRef(old);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef) {
      const c = this.resolveControllerRef(namespaceOf(old), oldRef);
      if (c) this.enqueue(c);
    }
    if (curRef) {
      const c = this.resolveControllerRef(namespaceOf(cur), curRef);
      if (!c) return;
      this.enqueue(c);
      const minReady = minReadySeconds(toController(this.deps.kind, c));
      if (!isPodReady(old) && isPodReady(cur) && minReady > 0) {
        // re-check availability once minReadySeconds have passed (+1 s against clock skew up to 1.33)
        this.enqueueAfter(c, minReady * 1000 + (this.deps.behaviour.readyRequeueExtraSecond ? 1000 : 0));
      }
      return;
    }
    if (labelsChanged || refChanged) for (const c of this.podControllers(cur)) this.enqueue(c);
  };

  deletePod = (obj: Pod | Tombstone<Pod>): void => {
    const pod = deletedObject(obj, this.deps.log);
    if (!pod) return;
    const ref = controllerRef(pod);
    if (!ref) return;
    const c = this.resolveControllerRef(namespaceOf(pod), ref);
    if (!c) return;
    const key = this.keyOf(c);
    this.deps.log.v(4).info('Pod deleted', { pod: metaNamespaceKey(namespaceOf(pod), pod.metadata.name), controller: key });
    this.expectations.deletionObserved(key, metaNamespaceKey(namespaceOf(pod), pod.metadata.name));
    this.enqueue(c);
  };

  // ---- workers ------------------------------------------------------------------------------

  /** One worker: take a key, sync it, Forget on success, rate-limited requeue on error. */
  async worker(): Promise<void> {
    await runWorker(
      this.queue,
      this.work,
      (key) => this.syncKey(key),
      (key, err) => this.deps.log.error(`error syncing ${this.deps.kind}`, { key, err: err.message }),
    );
  }

  /** syncReplicaSet(key); returns the error the worker retries with backoff. */
  async syncKey(key: string): Promise<Error | null> {
    const started = this.deps.clock.now();
    const slash = key.indexOf('/');
    if (slash < 0) return new Error(`invalid key ${JSON.stringify(key)}`);
    const ns = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const obj = this.deps.listers.controllers.get(ns, name);
    if (!obj) {
      this.deps.log.v(4).info(`${this.deps.kind} has been deleted`, { key });
      this.expectations.deleteExpectations(key);
      return null;
    }
    // One decision at one `now`, on the informer cache as this sync sees it.
    const planner = this.plannerFor(obj);
    const c = planner.controllers.find((x) => x.metadata.uid === obj.metadata.uid)!;
    let outcome: SyncOutcome;
    try {
      outcome = await syncController(planner, planner.planController(c), {
        api: this.deps.api,
        behaviour: this.deps.behaviour,
        expectations: this.expectations,
        onAction: (a) => this.deps.onAction?.(key, a),
      });
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
    this.deps.onSync?.(key, outcome, this.deps.clock.now() - started);
    if (outcome.skipped === 'InvalidSelector') {
      this.deps.log.error(`invalid selector: ${this.deps.kind} ${key} is skipped until it changes`, { key });
      return null;
    }
    if (outcome.error) return outcome.error;
    if (outcome.requeueAfterMs !== null) this.queue.addAfter(key, outcome.requeueAfterMs);
    return null;
  }

  /**
   * A planner over what one sync of this controller reads, found through the cache indexes (never
   * a scan of every controller of the namespace): the controller and its siblings (same owner),
   * whose selectors colocation ranks read (getPodsRankedByRelatedPodsOnSameNode); its pods come
   * from the pod indexers through InformerCandidatePods, the answer `explain` gets from a snapshot.
   */
  private plannerFor(obj: ControllerObject): ClusterPlanner {
    const ns = namespaceOf(obj);
    const l = this.deps.listers;
    const owner = this.info.hasSiblings ? controllerRef(obj) : undefined;
    const controllers = owner ? l.controllers.ownedBy(owner.uid).filter((c) => namespaceOf(c) === ns && c.metadata.uid !== obj.metadata.uid) : [];
    controllers.push(obj);
    const snapshot = emptySnapshot([], [this.info]);
    snapshot.controllers[this.deps.kind] = controllers;
    return new ClusterPlanner(
      snapshot,
      {
        now: this.deps.clock.now(),
        behaviour: this.deps.behaviour,
        source: 'cluster',
        burstReplicas: this.deps.burstReplicas,
        include: (c) => c.metadata.uid === obj.metadata.uid,
        expectationsSatisfied: (key) => this.expectations.satisfiedExpectations(key),
        warnings: false,
        registry: [this.info],
      },
      new InformerCandidatePods(l.pods),
    );
  }

  /**
   * Every controller in scope is in sync by the plan, no expectation is pending and no requeue
   * (minReadySeconds, a backoff) is waiting: nothing this controller knows of will write again.
   */
  allInSync(): boolean {
    if (this.busy() || this.queue.waiting() > 0) return false;
    for (const obj of this.deps.listers.controllers.all()) {
      if (this.deps.inScope && !this.deps.inScope(obj)) continue;
      const key = this.keyOf(obj);
      if (!this.expectations.satisfiedExpectations(key)) return false;
      const planner = this.plannerFor(obj);
      const c = planner.controllers.find((x) => x.metadata.uid === obj.metadata.uid)!;
      if (!isInSync(planner.planController(c))) return false;
    }
    return true;
  }

  /** Upstream's Run: N workers until the signal aborts, then a draining shutdown. */
  async run(workers: number, signal: AbortSignal): Promise<void> {
    const running = Array.from({ length: workers }, () => this.worker());
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    this.work.stopping = true;
    this.queue.shutDown();
    await Promise.all(running);
  }

  /** For logs and the dashboard. */
  describeKey(c: ControllerObject): string {
    return this.keyOf(c);
  }
}
