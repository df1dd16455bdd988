// Where a watch's snapshots come from: a static snapshot (-f files, read once), or the live
// cluster through informers (pods, and one per controller kind of CONTROLLER_KINDS). Every
// informer event marks the snapshot dirty, and the changes become log lines.

import type { InformerOptions } from '../../cluster/informer.js';
import type { Connection } from '../../cluster/kubeconfig.js';
import { CONTROLLER_KINDS, emptySnapshot, type ControllerKindInfo } from '../../core/controller.js';
import type { Pod, ReplicaSet, ReplicationController, Snapshot } from '../../core/types.js';
import type { InformerLike, LogLevel, WatchNews, WatchedObject } from './contract.js';
import type { DeploymentSource } from './deployment-source.js';

interface SourceListener {
  /** The snapshot changed (an informer event): re-plan soon. */
  changed(): void;
  log(level: LogLevel, text: string): void;
  /** A change to a watched object (once the caches have synced). */
  news(news: WatchNews): void;
}

export interface WatchSource {
  readonly live: boolean;
  /** Starts (or attaches to) the source; resolves once the first snapshot is complete. */
  start(listener: SourceListener, signal: AbortSignal): Promise<void>;
  snapshot(): Snapshot;
}

/** -f: one snapshot, read once. */
export function staticSource(snapshot: Snapshot): WatchSource {
  return {
    live: false,
    start: async () => {},
    snapshot: () => snapshot,
  };
}

/** pods, and the informer of each controller kind under its resource (replicasets, …); a kind without one is read as empty. */
export interface InformerSet {
  pods: InformerLike<Pod>;
  [resource: string]: unknown;
}

/** Read-only informers for what the planner reads: pods and every controller kind. */
export async function createInformers(
  conn: Connection,
  namespace: string | null,
  onError?: (e: Error) => void,
  registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS,
  /** More options per resource (watch --record: managedFields kept, relists reported). */
  extra: (resource: string) => Partial<InformerOptions> = () => ({}),
): Promise<InformerSet> {
  const { Informer } = await import('../../cluster/informer.js');
  const set: InformerSet = { pods: new Informer<Pod>({ conn, resource: 'pods', namespace, onError, ...extra('pods') }) };
  for (const k of registry) set[k.resource] = new Informer<ReplicaSet | ReplicationController>({ conn, resource: k, namespace, onError, ...extra(k.resource) });
  return set;
}

/**
 * A live source over informers. `run: true` runs them (read-only watch); `run: false` attaches
 * to informers someone else runs (the controller's, in reconcile mode). `controllerStatus: false`
 * marks the controllers' status changes as told already (reconcile mode: the controller's own
 * status writes are logged once, as its actions). Until every cache has synced, events only mark
 * the snapshot dirty (the initial list would flood the log).
 */
export function informerSource(
  set: InformerSet,
  opts: {
    run: boolean;
    controllerStatus?: boolean;
    registry?: readonly ControllerKindInfo[];
    /** The watch's own Deployments (run by this source in every mode): each change re-plans. */
    deployments?: DeploymentSource;
  },
): WatchSource {
  const status = opts.controllerStatus ?? true;
  let synced = false;
  const kinds = (opts.registry ?? CONTROLLER_KINDS).flatMap((k) => {
    const inf = set[k.resource] as InformerLike<ReplicaSet | ReplicationController> | undefined;
    return inf ? [{ info: k, inf }] : [];
  });
  const attach = <T extends WatchedObject>(resource: string, inf: InformerLike<T>, l: SourceListener) => {
    inf.addHandlers({
      add: (o) => {
        l.changed();
        if (synced) l.news({ type: 'added', resource, object: o });
      },
      update: (a, b) => {
        if (a === b || a.metadata.resourceVersion === b.metadata.resourceVersion) return; // a resync: nothing changed
        l.changed();
        if (synced) l.news({ type: 'updated', resource, before: a, after: b, status });
      },
      delete: (o) => {
        l.changed();
        if (synced) l.news({ type: 'deleted', resource, object: 'tombstone' in o ? o.obj : o });
      },
    });
  };
  return {
    live: true,
    async start(l, signal) {
      attach('pods', set.pods, l);
      for (const { info, inf } of kinds) attach(info.resource, inf, l);
      const all = [set.pods, ...kinds.map((k) => k.inf)] as InformerLike<WatchedObject>[];
      if (opts.run) for (const inf of all) void inf.run(signal);
      const dep = opts.deployments;
      if (dep) {
        dep.informer.addHandlers({
          add: () => l.changed(),
          update: (a, b) => a.metadata.resourceVersion !== b.metadata.resourceVersion && l.changed(),
          delete: () => l.changed(),
        });
        void dep.run(signal);
      }
      await Promise.all([...all.map((inf) => inf.waitForSync(signal)), ...(dep ? [dep.waitForSync(signal)] : [])]);
      synced = true;
      const listed = dep?.list();
      const counts = [
        `${set.pods.cache.list().length} pods`,
        ...kinds.map(({ info, inf }) => `${inf.cache.list().length} ${info.resource}`),
        ...(listed ? [`${listed.length} deployments`] : []),
      ];
      l.log('info', `synced: ${counts.join(', ')}`);
      l.changed();
    },
    snapshot: () => {
      const snapshot: Snapshot = emptySnapshot(set.pods.cache.list());
      for (const { info, inf } of kinds) snapshot.controllers[info.kind] = inf.cache.list();
      if (opts.deployments) snapshot.deployments = opts.deployments.list();
      return snapshot;
    },
  };
}
