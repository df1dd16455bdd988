// The deployment controller (pkg/controller/deployment): upstream's event handlers, which only
// compute keys and enqueue; its own rate-limited workqueue ("deployment"); workers that run one
// sync per key. The sync's decision is core/deployment's decideDeployment on the informer caches
// (shared with the ReplicaSet controller); carryOutDeploymentWrites sends its writes. Upstream's
// deployment controller keeps no expectations: neither does this one.

import { decideDeployment } from '../core/deployment/controller.js';
import type { DeploymentDecision } from '../core/deployment/types.js';
import type { Deployment, OwnerReference, Pod, ReplicaSet, Tombstone } from '../core/types.js';
import { controllerRef } from '../core/pod.js';
import { labelSelectorAsSelector } from '../core/selector.js';
import type { Behaviour } from '../core/versions.js';
import type { DeploymentControllerAPI } from '../runtime/api.js';
import type { Clock } from '../runtime/clock.js';
import { defaultControllerRateLimiter } from '../runtime/rate-limiter.js';
import { WorkQueue } from '../runtime/workqueue.js';
import { runWorker, type WorkerState } from '../runtime/worker.js';
import { type ControllerLogger, deletedObject } from './controller.js';
import { carryOutDeploymentWrites, type DeploymentSyncResult, type DeploymentWriteOutcome } from './deployment-sync.js';
import { metaNamespaceKey } from '../core/object-key.js';

/** The caches the deployment controller reads (the Deployment, ReplicaSet and pod listers). */
export interface DeploymentListers {
  deployments: {
    get(ns: string, name: string): Deployment | undefined;
    inNamespace(ns: string): Deployment[];
    all(): Deployment[];
  };
  replicaSets: {
    get(ns: string, name: string): ReplicaSet | undefined;
    inNamespace(ns: string): ReplicaSet[];
  };
  pods: { inNamespace(ns: string): Pod[] };
}

export interface DeploymentControllerDeps {
  listers: DeploymentListers;
  api: DeploymentControllerAPI;
  behaviour: Behaviour;
  clock: Clock;
  log: ControllerLogger;
  /** Only Deployments for which this holds are synced (-l). */
  inScope?: (d: Deployment) => boolean;
  onSync?: (key: string, decision: DeploymentDecision, result: DeploymentSyncResult, ms: number) => void;
  onWrite?: (key: string, o: DeploymentWriteOutcome) => void;
  queueMetrics?: ConstructorParameters<typeof WorkQueue<string>>[0]['onMetric'];
}

/** kube-controller-manager's name of this controller's workqueue. */
const DEPLOYMENT_QUEUE = 'deployment';

const nsOf = (o: { metadata: { namespace?: string | null } }) => o.metadata.namespace ?? 'default';
const keyOf = (o: { metadata: { namespace?: string | null; name: string } }) => metaNamespaceKey(nsOf(o), o.metadata.name);

export class DeploymentController {
  readonly queue: WorkQueue<string>;
  private readonly work: WorkerState = { inFlight: 0, stopping: false };

  constructor(private readonly deps: DeploymentControllerDeps) {
    this.queue = new WorkQueue<string>({
      clock: deps.clock,
      rateLimiter: defaultControllerRateLimiter<string>(deps.clock),
      name: DEPLOYMENT_QUEUE,
      onMetric: deps.queueMetrics,
    });
  }

  busy(): boolean {
    return this.work.inFlight > 0 || this.queue.len() > 0;
  }

  private enqueue(d: Deployment): void {
    if (this.deps.inScope && !this.deps.inScope(d)) return;
    this.queue.add(keyOf(d));
  }

  /** resolveControllerRef: a Deployment of that name and uid in the cache. */
  private resolveControllerRef(ns: string, ref: OwnerReference): Deployment | undefined {
    if (ref.kind !== 'Deployment') return undefined;
    const d = this.deps.listers.deployments.get(ns, ref.name);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  /** getDeploymentsForReplicaSet: the Deployments whose non-empty, valid selector matches an orphan's labels. */
  private deploymentsForReplicaSet(rs: ReplicaSet): Deployment[] {
    const labels = rs.metadata.labels;
    if (!labels || Object.keys(labels).length === 0) return [];
    const out: Deployment[] = [];
    for (const d of this.deps.listers.deployments.inNamespace(nsOf(rs))) {
      const sel = d.spec.selector ? labelSelectorAsSelector(d.spec.selector) : null;
      if (!sel?.ok || sel.selector.nothing || sel.selector.everything) continue;
      if (sel.selector.matches(labels)) out.push(d);
    }
    if (out.length > 1) {
      this.deps.log.info('user error: more than one Deployment is selecting replica set', {
        replicaSet: keyOf(rs),
        deployments: out.map((d) => d.metadata.name),
      });
    }
    return out;
  }

  // ---- event handlers (upstream's addDeployment, addReplicaSet, deletePod, …) ----

  addDeployment = (d: Deployment): void => {
    this.deps.log.v(4).info('Adding deployment', { deployment: keyOf(d) });
    this.enqueue(d);
  };

  updateDeployment = (_old: Deployment, cur: Deployment): void => {
    this.deps.log.v(4).info('Updating deployment', { deployment: keyOf(cur) });
    this.enqueue(cur);
  };

  deleteDeployment = (obj: Deployment | Tombstone<Deployment>): void => {
    const d = deletedObject(obj, this.deps.log);
    if (!d) return;
    this.deps.log.v(4).info('Deleting deployment', { deployment: keyOf(d) });
    this.enqueue(d);
  };

  addReplicaSet = (rs: ReplicaSet): void => {
    if (rs.metadata.deletionTimestamp) {
      // a restarted controller sees a ReplicaSet pending deletion as added
      this.deleteReplicaSet(rs);
      return;
    }
    const ref = controllerRef(rs);
    if (ref) {
      const d = this.resolveControllerRef(nsOf(rs), ref);
      if (d) this.enqueue(d);
      return;
    }
    for (const d of this.deploymentsForReplicaSet(rs)) this.enqueue(d);
  };

  updateReplicaSet = (old: ReplicaSet, cur: ReplicaSet): void => {
    if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return; // periodic resync
    const curRef = controllerRef(cur);
    const oldRef = controllerRef(old);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef) {
      const d = this.resolveControllerRef(nsOf(old), oldRef);
      if (d) this.enqueue(d);
    }
    if (curRef) {
      const d = this.resolveControllerRef(nsOf(cur), curRef);
      if (d) this.enqueue(d);
      return;
    }
    const labelsChanged = JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(cur.metadata.labels ?? {});
    if (labelsChanged || refChanged) for (const d of this.deploymentsForReplicaSet(cur)) this.enqueue(d);
  };

  deleteReplicaSet = (obj: ReplicaSet | Tombstone<ReplicaSet>): void => {
    const rs = deletedObject(obj, this.deps.log);
    if (!rs) return;
    const ref = controllerRef(rs);
    if (!ref) return;
    const d = this.resolveControllerRef(nsOf(rs), ref);
    if (d) this.enqueue(d);
  };

  /** deletePod: a Recreate Deployment whose old pods are all gone may now create its new ReplicaSet. */
  deletePod = (obj: Pod | Tombstone<Pod>): void => {
    const pod = deletedObject(obj, this.deps.log);
    if (!pod) return;
    const d = this.deploymentForPod(pod);
    if (d?.spec.strategy?.type !== 'Recreate') return;
    // getPodMapForDeployment: the pods of the Deployment's ReplicaSets, by their controller's uid
    const ns = nsOf(d);
    const owned = new Set(
      this.deps.listers.replicaSets
        .inNamespace(ns)
        .filter((rs) => controllerRef(rs)?.uid === d.metadata.uid)
        .map((rs) => rs.metadata.uid),
    );
    const sel = d.spec.selector ? labelSelectorAsSelector(d.spec.selector) : null;
    const left = this.deps.listers.pods.inNamespace(ns).filter((p) => {
      const ref = controllerRef(p);
      return ref !== undefined && owned.has(ref.uid) && sel?.ok === true && sel.selector.matches(p.metadata.labels);
    });
    if (left.length === 0) this.enqueue(d);
  };

  /** getDeploymentForPod: the pod's controlling ReplicaSet's controlling Deployment. */
  private deploymentForPod(pod: Pod): Deployment | undefined {
    const ref = controllerRef(pod);
    if (ref?.kind !== 'ReplicaSet') return undefined;
    const rs = this.deps.listers.replicaSets.get(nsOf(pod), ref.name);
    if (!rs || rs.metadata.uid !== ref.uid) return undefined;
    const dref = controllerRef(rs);
    return dref ? this.resolveControllerRef(nsOf(rs), dref) : undefined;
  }

  // ---- workers ----

  async worker(): Promise<void> {
    await runWorker(
      this.queue,
      this.work,
      (key) => this.syncKey(key),
      (key, err) => this.deps.log.error('error syncing deployment', { key, err: err.message }),
    );
  }

  /** The decision of one sync of `key` on the caches as they are now (null: the Deployment is gone). */
  decide(key: string): { d: Deployment; replicaSets: ReplicaSet[]; decision: DeploymentDecision } | null {
    const slash = key.indexOf('/');
    const ns = key.slice(0, slash);
    const d = this.deps.listers.deployments.get(ns, key.slice(slash + 1));
    if (!d) return null;
    const replicaSets = this.deps.listers.replicaSets.inNamespace(ns);
    const decision = decideDeployment({
      deployment: d,
      replicaSets,
      pods: this.deps.listers.pods.inNamespace(ns),
      nowMs: this.deps.clock.now(),
      behaviour: this.deps.behaviour,
    });
    return { d, replicaSets, decision };
  }

  /** syncDeployment(key): the error the worker retries with backoff, else null. */
  async syncKey(key: string): Promise<Error | null> {
    const started = this.deps.clock.now();
    if (key.indexOf('/') < 0) return new Error(`invalid key ${JSON.stringify(key)}`);
    const found = this.decide(key);
    if (!found) {
      this.deps.log.v(4).info('Deployment has been deleted', { key });
      return null;
    }
    const { d, replicaSets, decision } = found;
    let result: DeploymentSyncResult;
    try {
      result = await carryOutDeploymentWrites(this.deps.api, d, replicaSets, decision, (o) => this.deps.onWrite?.(key, o), this.deps.clock.now());
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
    this.deps.onSync?.(key, decision, result, this.deps.clock.now() - started);
    if (result.error) return result.error;
    if (decision.requeueAfterSeconds !== null) this.queue.addAfter(key, decision.requeueAfterSeconds * 1000);
    return null;
  }

  /**
   * Nothing queued or in flight, and every Deployment in scope in sync by its decision with no
   * re-check asked (a rollout still progressing asks one: the progress deadline). A delayed key
   * still waiting from an earlier sync (a progress re-check, a retry) does not count: its sync, on
   * these caches, would write nothing.
   */
  allInSync(): boolean {
    if (this.busy()) return false;
    for (const d of this.deps.listers.deployments.all()) {
      if (this.deps.inScope && !this.deps.inScope(d)) continue;
      const found = this.decide(keyOf(d));
      if (found && (!found.decision.inSync || found.decision.requeueAfterSeconds !== null)) return false;
    }
    return true;
  }

  async run(workers: number, signal: AbortSignal): Promise<void> {
    const running = Array.from({ length: workers }, () => this.worker());
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    this.work.stopping = true;
    this.queue.shutDown();
    await Promise.all(running);
  }
}
