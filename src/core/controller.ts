// ReplicaSets and ReplicationControllers as one type: upstream runs the same controller for both,
// converting every RC to a ReplicaSet on the way in (§13).

import { rcSelectorAsLabelSelector } from './selector.js';
import type { Controller, ControllerKind, ReplicaSet, ReplicationController } from './types.js';

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

export function namespaceOf(obj: { metadata: { namespace?: string } }): string {
  return obj.metadata.namespace || 'default';
}

/** `namespace/name`, the workqueue and expectations key. */
export function controllerKey(c: Controller): string {
  return `${namespaceOf(c)}/${c.metadata.name}`;
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

/** apiVersion and kind written into owner references and adopt patches. */
export function ownerGroupVersion(kind: ControllerKind): { apiVersion: string; kind: ControllerKind } {
  return kind === 'ReplicaSet' ? { apiVersion: 'apps/v1', kind } : { apiVersion: 'v1', kind };
}

/** The resource noun kubectl uses: `replicaset.apps/web`, `replicationcontroller/db`. */
export function resourceName(c: { kind: ControllerKind; metadata: { name: string } }): string {
  return c.kind === 'ReplicaSet' ? `replicaset.apps/${c.metadata.name}` : `replicationcontroller/${c.metadata.name}`;
}

export function compareControllers(a: Controller, b: Controller): number {
  const na = namespaceOf(a);
  const nb = namespaceOf(b);
  if (na !== nb) return na < nb ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}
