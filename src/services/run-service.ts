// `run`: the ReplicaSet and ReplicationController controllers in the foreground, as
// kube-controller-manager runs them: informers → caches synced → workers, optionally behind a
// Lease (leader election), with metrics, health endpoints and a draining shutdown.

import { hostname } from 'node:os';
import { KubeControllerAPI, userAgentFor } from '../cluster/controller-api.js';
import { Informer } from '../cluster/informer.js';
import { POD_INDEXERS, podListersOf } from '../cluster/pod-indexers.js';
import type { Connection } from '../cluster/kubeconfig.js';
import { ReplicaSetController, type ControllerLogger, type Listers } from '../controller/controller.js';
import { DeploymentController } from '../controller/deployment-controller.js';
import type { DeploymentWriteOutcome } from '../controller/deployment-sync.js';
import type { Deployment, ControllerObject, ControllerKind, Pod, ReplicaSet } from '../core/types.js';
import type { WriteFence, ActionOutcome } from '../runtime/api.js';
import { fanOutSignal } from '../runtime/signal.js';
import { realClock } from '../runtime/clock.js';
import { CONTROLLER_KINDS, controllerKindInfo, type ControllerKindInfo } from '../core/controller.js';
import { ROLLBACK_TO_ANNOTATION } from '../core/deployment/util.js';
import { controllerRef, isPodActive, isPodReady, isPodTerminating } from '../core/pod.js';
import { TokenBucket } from '../runtime/rate-limiter.js';
import { parseSelectorString } from '../core/selector.js';
import type { Behaviour } from '../core/versions.js';
import type { MetricEvent } from '../runtime/workqueue.js';
import { UserError } from '../errors.js';
import { metaNamespaceKey, splitMetaNamespaceKey } from '../core/object-key.js';

interface ControllerMetricsSink {
  onQueueMetric(queue: string, e: MetricEvent): void;
  onRequest(verb: string, resource: string, code: number): void;
  onSync(kind: ControllerKind | 'Deployment', ms: number, ok: boolean): void;
}

export interface StartOptions {
  conn: Connection;
  namespace: string | null; // null: all namespaces
  selector?: string; // -l on controllers (client-side: siblings stay visible for ranking)
  /** Which of the registry's kinds to run. */
  kinds: ControllerKind[];
  /** Also run the deployment controller, on the same ReplicaSet and pod informers. */
  deployment?: boolean;
  /** The controller kinds there are (default CONTROLLER_KINDS): one informer and controller each. */
  registry?: readonly ControllerKindInfo[];
  workers: number;
  burstReplicas: number;
  behaviour: Behaviour;
  qps: number;
  burst: number;
  resyncMs?: number;
  dryRun?: boolean;
  log: ControllerLogger;
  metrics?: ControllerMetricsSink;
  /**
   * Who hears each action, as the structured value the sync reports. Default: the log, one line
   * each (actionLogLine), as kube-controller-manager logs them; a dashboard words them itself.
   */
  onAction?: (kind: ControllerKind, key: string, a: ActionOutcome) => void;
  /** Leader election: every write passes this fence (refused once the lease may be lost). */
  fence?: WriteFence;
  /** The lease identity, sent in the User-Agent of the controllers' requests (default: the hostname). */
  identity?: string;
  /** Remember the pods created and deleted, for unsettledPods (--until-synced). */
  trackWrittenPods?: boolean;
}

export interface ControllersHandle {
  controllers: ReplicaSetController[];
  /** The deployment controller, when it runs. */
  deployment: DeploymentController | null;
  /** The pod informer, and one informer per kind run, under its resource (replicasets, …). */
  informers: { pods: Informer<Pod>; [resource: string]: Informer<Pod> | Informer<ControllerObject> | Informer<Deployment> };
  /** Resolves once every informer has listed (upstream's WaitForCacheSync). */
  synced: Promise<void>;
  /** Every controller in scope is in sync and no expectation is pending. */
  allInSync(): boolean;
  /**
   * With `trackWrittenPods`: the pods the controllers have not yet seen settle, by the cache: those
   * they created that are not ready yet, those they deleted that are not gone yet (where the status
   * counts terminating pods). Settled ones are forgotten. Empty without tracking.
   */
  unsettledPods(): { notReady: string[]; notGone: string[] };
  /** Resolves when the workers stopped (after the signal aborted). */
  done: Promise<void>;
}

/**
 * The log line of one action: what was done to which pod and, for a delete, why the sync's
 * decision chose that pod (its ranking reason and sentence, as `history` words a delete).
 */
export function actionLogLine(kind: ControllerKind, key: string, a: ActionOutcome): string {
  const what = `${a.action === 'status' ? 'update status' : a.action}${a.pod ? ` pod ${a.pod}` : ''}`;
  const why = [a.reason ? `${a.reason.code}: ${a.reason.message}` : null, a.note ?? null].filter((x) => x !== null);
  return `${kind} ${key}: ${what}${a.ok ? '' : ' failed'}${why.length ? ` (${why.join('; ')})` : ''}`;
}

/** Who hears the controllers' actions: `onAction` when given, else the log (each one a line, a failure an error line). */
export function actionReporter(opts: Pick<StartOptions, 'onAction' | 'log'>): NonNullable<StartOptions['onAction']> {
  if (opts.onAction) return opts.onAction;
  return (kind, key, a) => {
    const line = actionLogLine(kind, key, a);
    if (a.ok) opts.log.info(line);
    else opts.log.error(line, { code: a.code, err: a.error });
  };
}

/**
 * Informers, caches and one controller per kind of the registry in opts.kinds; workers start
 * once the caches have synced.
 */
export function startControllers(opts: StartOptions, signal: AbortSignal): ControllersHandle {
  const inScope = controllerScope(opts.selector);
  const { pods, kinds, informersFor } = newInformers(opts);
  const written = new WrittenPods(opts.behaviour);
  const api = controllerAPI(opts);
  const podLister: Listers['pods'] = podListersOf(pods.cache);
  const report = actionReporter(opts);
  const controllers = kinds.map(
    (info, i) =>
      new ReplicaSetController({
        kind: info.kind,
        info,
        listers: { pods: podLister, controllers: controllerLister(informersFor[i]) },
        api,
        behaviour: opts.behaviour,
        burstReplicas: opts.burstReplicas,
        clock: realClock,
        log: opts.log,
        inScope,
        queueMetrics: opts.metrics ? (e) => opts.metrics!.onQueueMetric(info.queueName, e) : undefined,
        onSync: (key, outcome, ms) => {
          opts.metrics?.onSync(info.kind, ms, outcome.error === null);
          opts.log.v(2).info(`Finished syncing ${info.kind}`, {
            key,
            duration: `${ms}ms`,
            actions: outcome.actions.length,
            ...(outcome.error ? { err: outcome.error.message } : {}),
          });
        },
        onAction: (key, a) => {
          report(info.kind, key, a);
          if (opts.trackWrittenPods && a.ok && a.pod) written.note(info.kind, key, a.action, a.pod);
        },
      }),
  );
  addEventHandlers(pods, informersFor, controllers, written);
  const dep = opts.deployment ? deploymentControllerOf(opts, pods, kinds, informersFor, inScope) : null;
  const { synced, done } = runInformersThenWorkers(
    opts,
    [api, ...(dep ? [dep.api] : [])],
    pods,
    [...informersFor, ...(dep?.informers ?? [])],
    controllers,
    dep?.controller ?? null,
    signal,
  );
  const informers: ControllersHandle['informers'] = { pods };
  kinds.forEach((k, i) => {
    informers[k.resource] = informersFor[i];
  });
  if (dep) {
    informers.deployments = dep.deployments;
    informers.replicasets ??= dep.replicaSets;
  }
  return {
    controllers,
    deployment: dep?.controller ?? null,
    informers,
    synced,
    done,
    allInSync: () => controllers.every((c) => c.allInSync()) && (dep?.controller.allInSync() ?? true),
    unsettledPods: () => written.unsettled((key) => pods.cache.get(key)),
  };
}

/** The log line of one write of the deployment controller. */
function deploymentWriteLine(key: string, o: DeploymentWriteOutcome): string {
  const w = o.write;
  const what =
    w.kind === 'updateReplicaSet'
      ? `update replicaset ${o.target}${w.from !== w.to ? ` (replicas ${w.from} → ${w.to})` : ''}`
      : w.kind === 'createReplicaSet'
        ? `create replicaset ${o.target} (replicas ${w.replicaSet.spec.replicas ?? 0})`
        : w.kind === 'updateDeploymentStatus'
          ? 'update status'
          : w.kind === 'updateDeployment'
            ? `update deployment (rollback: ${w.event ? 'template rolled back' : 'given up'}, ${ROLLBACK_TO_ANNOTATION} cleared)`
            : `${w.kind.replace('ReplicaSet', '').toLowerCase()} replicaset ${o.target}`;
  const tail = [o.note, o.error].filter((x) => x);
  return `Deployment ${key}: ${what}${o.ok ? '' : ' failed'}${tail.length ? ` (${tail.join('; ')})` : ''}`;
}

/**
 * The deployment controller on the informers `run` has: the ReplicaSet informer of the
 * ReplicaSet controller when it runs (one cache for both, as kcm's shared informers), else one of
 * its own; a Deployment informer; its own client ("deployment-controller", as kcm's clients are one
 * per controller), behind the same fence.
 */
function deploymentControllerOf(
  opts: StartOptions,
  pods: Informer<Pod>,
  kinds: ControllerKindInfo[],
  informersFor: Informer<ControllerObject>[],
  inScope: ((o: ControllerObject) => boolean) | undefined,
): {
  controller: DeploymentController;
  api: KubeControllerAPI;
  deployments: Informer<Deployment>;
  replicaSets: Informer<ControllerObject>;
  informers: RunnableInformer[];
} {
  const common = {
    conn: opts.conn,
    namespace: opts.namespace,
    resyncMs: opts.resyncMs,
    onError: (e: Error) => opts.log.error('informer error', { err: e.message }),
  };
  const shared = kinds.findIndex((k) => k.kind === 'ReplicaSet');
  const own =
    shared < 0
      ? new Informer<ControllerObject>({ ...common, resource: 'replicasets', indexers: { namespace: (o) => [o.metadata.namespace ?? 'default'] } })
      : null;
  const replicaSets = own ?? informersFor[shared];
  const deployments = new Informer<Deployment>({
    ...common,
    resource: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' },
    indexers: { namespace: (o) => [o.metadata.namespace ?? 'default'] },
  });
  const api = controllerAPI(opts, 'deployment-controller');
  const podLister = podListersOf(pods.cache);
  const controller = new DeploymentController({
    listers: {
      deployments: {
        get: (ns, name) => deployments.cache.get(metaNamespaceKey(ns, name)),
        inNamespace: (ns) => deployments.cache.byIndex('namespace', ns),
        all: () => deployments.cache.list(),
      },
      replicaSets: {
        // the replicasets resource holds ReplicaSets only
        get: (ns, name) => replicaSets.cache.get(metaNamespaceKey(ns, name)) as ReplicaSet | undefined,
        inNamespace: (ns) => replicaSets.cache.byIndex('namespace', ns) as ReplicaSet[],
      },
      pods: { inNamespace: podLister.inNamespace },
    },
    api,
    behaviour: opts.behaviour,
    clock: realClock,
    log: opts.log,
    inScope: inScope as ((d: Deployment) => boolean) | undefined,
    queueMetrics: opts.metrics ? (e) => opts.metrics!.onQueueMetric('deployment', e) : undefined,
    onSync: (key, decision, result, ms) => {
      opts.metrics?.onSync('Deployment', ms, result.error === null);
      opts.log.v(2).info('Finished syncing deployment', {
        key,
        duration: `${ms}ms`,
        path: decision.path,
        writes: result.outcomes.length,
        ...(result.error ? { err: result.error.message } : {}),
      });
    },
    onWrite: (key, o) => {
      const line = deploymentWriteLine(key, o);
      if (o.ok) opts.log.info(line);
      else opts.log.error(line, { code: o.code });
    },
  });
  deployments.addHandlers({ add: controller.addDeployment, update: controller.updateDeployment, delete: controller.deleteDeployment });
  replicaSets.addHandlers({ add: controller.addReplicaSet, update: controller.updateReplicaSet, delete: controller.deleteReplicaSet });
  pods.addHandlers({ delete: controller.deletePod });
  return {
    controller,
    api,
    deployments,
    replicaSets,
    informers: [deployments, ...(own ? [own] : [])],
  };
}

/** -l: the controllers a selector chooses (client-side: the others stay visible for ranking). */
function controllerScope(selector: string | undefined): ((o: ControllerObject) => boolean) | undefined {
  if (selector === undefined) return undefined;
  const sel = parseSelectorString(selector);
  if (!sel.ok) throw new UserError(sel.error);
  return (o) => sel.selector.matches(o.metadata.labels);
}

/** The pod informer, and one informer per kind run, each kind on a resource of its own. */
function newInformers(opts: StartOptions): { pods: Informer<Pod>; kinds: ControllerKindInfo[]; informersFor: Informer<ControllerObject>[] } {
  const common = {
    conn: opts.conn,
    namespace: opts.namespace,
    resyncMs: opts.resyncMs,
    onError: (e: Error) => opts.log.error('informer error', { err: e.message }),
  };
  const pods = new Informer<Pod>({
    ...common,
    resource: 'pods',
    indexers: POD_INDEXERS,
  });
  const nsIndex = {
    namespace: (o: ControllerObject) => [o.metadata.namespace ?? 'default'],
    owner: (o: ControllerObject) => {
      const ref = controllerRef(o);
      return ref ? [ref.uid] : [];
    },
  };
  const registry = opts.registry ?? CONTROLLER_KINDS;
  for (const kind of opts.kinds) controllerKindInfo(kind, registry); // throws for a kind not registered
  const kinds = registry.filter((k) => opts.kinds.includes(k.kind));
  if (new Set(['pods', ...kinds.map((k) => k.resource)]).size !== kinds.length + 1) {
    throw new Error(`controller kinds need resources of their own: ${kinds.map((k) => k.resource).join(', ')}`);
  }
  return { pods, kinds, informersFor: kinds.map((k) => new Informer<ControllerObject>({ ...common, resource: k, indexers: nsIndex })) };
}

function controllerLister(inf: Informer<ControllerObject>): Listers['controllers'] {
  return {
    get: (ns, name) => inf.cache.get(metaNamespaceKey(ns, name)),
    inNamespace: (ns) => inf.cache.byIndex('namespace', ns),
    all: () => inf.cache.list(),
    ownedBy: (uid) => inf.cache.byIndex('owner', uid),
  };
}

/** The controllers' client: rate-limited, fenced by the lease, named in the User-Agent. */
function controllerAPI(opts: StartOptions, client = 'replicaset-controller'): KubeControllerAPI {
  return new KubeControllerAPI(opts.conn.kc, {
    dryRun: opts.dryRun,
    limiter: new TokenBucket(realClock, opts.qps, opts.burst),
    hostname: hostname(),
    onRequest: opts.metrics?.onRequest,
    fence: opts.fence,
    // Always named, leader or not: an audit log tells the controller's writes by this User-Agent
    // (`history`), as kube-controller-manager's by its service account.
    userAgent: userAgentFor(client, opts.identity ?? hostname(), opts.behaviour.version),
  });
}

/**
 * Event handlers: every controller sees every pod; each sees its own kind's objects. A dashboard
 * tells the changes from handlers of its own (watch --reconcile: services/watch/sources.ts).
 */
function addEventHandlers(pods: Informer<Pod>, informersFor: Informer<ControllerObject>[], controllers: ReplicaSetController[], written: WrittenPods): void {
  pods.addHandlers({
    add: (p) => {
      for (const c of controllers) c.addPod(p);
    },
    update: (o, p) => {
      for (const c of controllers) c.updatePod(o, p);
    },
    delete: (p) => {
      for (const c of controllers) c.deletePod(p);
      const gone = 'tombstone' in p ? p.obj : p;
      if (gone?.metadata) written.gone(gone);
    },
  });
  controllers.forEach((c, i) => {
    informersFor[i].addHandlers({
      add: (o) => c.addController(o),
      update: (o, n) => c.updateController(o, n),
      delete: (o) => c.deleteController(o),
    });
  });
}

/** What starting and awaiting an informer needs, whatever it caches. */
type RunnableInformer = Pick<Informer, 'run' | 'waitForSync'>;

/** The informers run; once every cache has synced (WaitForCacheSync) the workers start, until `stop`. */
function runInformersThenWorkers(
  opts: StartOptions,
  apis: KubeControllerAPI[],
  pods: Informer<Pod>,
  informersFor: RunnableInformer[],
  controllers: ReplicaSetController[],
  deployment: DeploymentController | null,
  stop: AbortSignal,
): { synced: Promise<void>; done: Promise<void> } {
  const signal = fanOutSignal(stop);
  const running = [pods, ...informersFor].map((inf) => inf.run(signal));
  const synced = Promise.all([pods, ...informersFor].map((inf) => inf.waitForSync(signal))).then(() => undefined);
  const done = (async () => {
    try {
      await synced;
    } catch {
      await Promise.allSettled(running);
      return;
    }
    opts.log.info('Caches are synced', { controllers: [...controllers.map((c) => c.kind), ...(deployment ? ['Deployment'] : [])].join(',') });
    await Promise.all([...controllers.map((c) => c.run(opts.workers, signal)), ...(deployment ? [deployment.run(opts.workers, signal)] : [])]);
    await Promise.all(apis.map((api) => api.flush())); // events of the last syncs
    await Promise.allSettled(running);
  })();
  return { synced, done };
}

/**
 * The pods the controllers created and deleted, until the cache shows them settled: a created pod
 * ready (or finished, or gone), a deleted pod gone. Until then the status they count may change
 * again, so `run --until-synced` is not done (diff run right after would see that change).
 */
class WrittenPods {
  private readonly created = new Set<string>();
  private readonly deleted = new Map<string, ControllerKind>();

  constructor(private readonly behaviour: Behaviour) {}

  /** `key`: the controller's metaNamespaceKey (its pods are in its namespace); `pod`: the pod's name. */
  note(kind: ControllerKind, key: string, action: ActionOutcome['action'], pod: string): void {
    const podKey = metaNamespaceKey(splitMetaNamespaceKey(key)?.namespace, pod);
    if (action === 'create') this.created.add(podKey);
    else if (action === 'delete') this.deleted.set(podKey, kind);
  }

  /** The informer saw the pod deleted: a created pod that is gone has settled. */
  gone(pod: Pod): void {
    this.created.delete(metaNamespaceKey(pod.metadata.namespace ?? 'default', pod.metadata.name));
  }

  /** `lookup`: a pod of the cache by its metaNamespaceKey. */
  unsettled(lookup: (key: string) => Pod | undefined): { notReady: string[]; notGone: string[] } {
    const notReady: string[] = [];
    for (const k of this.created) {
      const p = lookup(k);
      // not in the cache yet: the informer has not seen the create (a deleted one is dropped by gone)
      if (!p || isPodTerminating(p) || (isPodActive(p) && !isPodReady(p))) notReady.push(k);
      else this.created.delete(k);
    }
    const notGone: string[] = [];
    for (const [k, kind] of this.deleted) {
      // terminating pods change the status only where the emulated version counts them
      if (lookup(k) && this.behaviour.gates.DeploymentReplicaSetTerminatingReplicas && this.behaviour.statusTerminatingReplicas[kind]) notGone.push(k);
      else this.deleted.delete(k);
    }
    return { notReady, notGone };
  }
}
