// ReplicaSets and ReplicationControllers as one type: upstream runs the same controller for both,
// converting every RC to a ReplicaSet on the way in (upstream's replication controller wraps the ReplicaSet one).

import { rcSelectorAsLabelSelector } from './selector.js';
import type { Controller, ControllerKind, ControllerObject, Pod, ReplicaSet, ReplicationController, Snapshot } from './types.js';

export function fromReplicaSet(rs: ReplicaSet): Controller {
  return { kind: 'ReplicaSet', metadata: rs.metadata, spec: rs.spec ?? {}, status: rs.status ?? {}, object: rs };
}

export function fromReplicationController(rc: ReplicationController): Controller {
  const spec = rc.spec ?? {};
  return {
    kind: 'ReplicationController',
    metadata: rc.metadata,
    spec: { replicas: spec.replicas, minReadySeconds: spec.minReadySeconds, selector: rcSelectorAsLabelSelector(spec.selector), template: spec.template },
    status: rc.status ?? {},
    object: rc,
  };
}

/**
 * One kind of controller object the ReplicaSet controller runs for: how the API serves it, how it
 * reads as the one Controller shape, and the names the controller runtime gives it.
 *
 * The registry holds pod-owning, ReplicaSet-like controllers only: objects with replicas, a
 * selector and a pod template, whose pods are claimed, created and deleted by syncReplicaSet (as
 * upstream's ReplicationManager is the ReplicaSet controller under another name). Informers, the
 * cluster readers, the snapshot, the input formats' kind lists and the controller wiring iterate
 * over CONTROLLER_KINDS. A controller of another shape (a Deployment, which owns ReplicaSets, not
 * pods) is no entry here: it would be its own vertical, as upstream keeps pkg/controller/deployment
 * apart from pkg/controller/replicaset (docs/how-it-works.md, "Where to change what").
 */
export interface ControllerKindInfo {
  kind: ControllerKind;
  /** API group ("" for the core group), version and resource (plural) it is served under. */
  group: string;
  version: string;
  resource: string;
  /** kubectl's short name, for log lines: rs, rc. */
  shortName: string;
  /** The workqueue's name in kube-controller-manager (its metrics carry it). */
  queueName: string;
  /**
   * Whether a controller of this kind may have a controller owner whose other controllers are its
   * siblings: upstream's getReplicaSetsWithSameController ranks by pods related through the
   * Deployment's ReplicaSets; a ReplicationController has no such owner.
   */
  hasSiblings: boolean;
  /** The object as the controller reads it. */
  toController(obj: Controller['object']): Controller;
}

export const REPLICA_SET_KIND: ControllerKindInfo = {
  kind: 'ReplicaSet',
  group: 'apps',
  version: 'v1',
  resource: 'replicasets',
  shortName: 'rs',
  queueName: 'replicaset',
  hasSiblings: true,
  toController: (obj) => fromReplicaSet(obj as ReplicaSet),
};

const REPLICATION_CONTROLLER_KIND: ControllerKindInfo = {
  kind: 'ReplicationController',
  group: '',
  version: 'v1',
  resource: 'replicationcontrollers',
  shortName: 'rc',
  // upstream's ReplicationManager is the ReplicaSet controller under another queue name
  queueName: 'replicationmanager',
  hasSiblings: false,
  toController: (obj) => fromReplicationController(obj as ReplicationController),
};

/** Every controller kind, in the order they are read, started and listed. */
export const CONTROLLER_KINDS: readonly ControllerKindInfo[] = [REPLICA_SET_KIND, REPLICATION_CONTROLLER_KIND];

export function controllerKindInfo(kind: ControllerKind, registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS): ControllerKindInfo {
  const info = registry.find((k) => k.kind === kind);
  if (!info) throw new Error(`no controller kind ${JSON.stringify(kind)} is registered (${registry.map((k) => k.kind).join(', ')})`);
  return info;
}

/** Whether a kind (of an owner reference, an event's object, an input's item) is a registered controller kind. */
export function isControllerKind(kind: unknown, registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS): kind is ControllerKind {
  return registry.some((k) => k.kind === kind);
}

/** The controller kind served under a resource (plural), or undefined for another resource. */
export function kindOfResource(resource: string, registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS): ControllerKind | undefined {
  return registry.find((k) => k.resource === resource)?.kind;
}

/** The registered kinds in words, for messages: "ReplicaSet or ReplicationController". */
export function controllerKindsText(conjunction: 'or' | 'and', registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS): string {
  const kinds = registry.map((k) => k.kind);
  return kinds.length > 1 ? `${kinds.slice(0, -1).join(', ')} ${conjunction} ${kinds.at(-1)}` : (kinds[0] ?? '');
}

/** A snapshot with no controller of any kind (and these pods). */
export function emptySnapshot(pods: Pod[] = [], registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS): Snapshot {
  const controllers = {} as Snapshot['controllers'];
  for (const k of registry) controllers[k.kind] = [];
  return { controllers, pods };
}

/** Every controller object of a snapshot, kind by kind in registry order. */
export function controllerObjectsOf(snapshot: Snapshot, registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS): ControllerObject[] {
  return registry.flatMap((k) => snapshot.controllers[k.kind] ?? []);
}

/** Every controller of a snapshot, read as the one Controller shape, kind by kind in registry order. */
export function controllersOf(snapshot: Snapshot, registry: readonly ControllerKindInfo[] = CONTROLLER_KINDS): Controller[] {
  return registry.flatMap((k) => (snapshot.controllers[k.kind] ?? []).map((o) => k.toController(o)));
}

/** "apps/v1", or "v1" for the core group. */
export function apiVersionOf(r: { group: string; version: string }): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

export function namespaceOf(obj: { metadata: { namespace?: string } }): string {
  return obj.metadata.namespace || 'default';
}

/** spec.replicas, defaulted to 1 as the API server does for both kinds. */
export function desiredReplicas(c: Controller): number {
  return c.spec.replicas ?? 1;
}

export function minReadySeconds(c: Controller): number {
  return c.spec.minReadySeconds ?? 0;
}

export function isBeingDeleted(c: Controller): boolean {
  return !!c.metadata.deletionTimestamp;
}

/** Whether the pod template has a label: RealPodControl refuses to create pods from one without ("unable to create pods, no labels"). */
export function templateHasLabels(c: Controller): boolean {
  const labels = c.spec.template?.metadata?.labels;
  return !!labels && Object.keys(labels).length > 0;
}

/** apiVersion and kind written into owner references and adopt patches. */
export function ownerGroupVersion(kind: ControllerKind): { apiVersion: string; kind: ControllerKind } {
  return { apiVersion: apiVersionOf(controllerKindInfo(kind)), kind };
}

export function compareControllers(a: Controller, b: Controller): number {
  const na = namespaceOf(a);
  const nb = namespaceOf(b);
  if (na !== nb) return na < nb ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}
