// Builders for the rule tests: small Kubernetes objects with only the fields the rules read.
// Every expectation in the tests is derived from ../../../../shared/reference/replicaset-controller.md
// (cited as §n); the builders only save typing.

import { fromReplicaSet, fromReplicationController } from '../../../src/core/controller.js';
import type {
  Controller,
  LabelSelector,
  Labels,
  OwnerReference,
  Pod,
  ReplicaSet,
  ReplicaSetStatus,
  ReplicationController,
  Snapshot,
} from '../../../src/core/types.js';
import { behaviourFor, type Behaviour, type GateName } from '../../../src/core/versions.js';

export const NOW = Date.parse('2026-01-01T00:00:00Z');
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** RFC 3339 (second precision) of `NOW - ms`. */
export function ago(ms: number, now = NOW): string {
  return new Date(now - ms).toISOString().replace(/\.000Z$/, 'Z');
}

export function bh(minor = 35, gates: Partial<Record<GateName, boolean>> = {}): Behaviour {
  const r = behaviourFor(minor, gates);
  if (r.error) throw new Error(r.error);
  return r.behaviour;
}

export function controllerRefTo(uid: string, name = 'owner', kind = 'ReplicaSet', apiVersion = 'apps/v1'): OwnerReference {
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}

/**
 * The controller reference a pod owned by `uid` carries: the uids rs() and rc() give
 * (`rs-uid-<name>`, `rc-uid-<name>`) name their object, as a real reference does (from 1.34 kind
 * and name count too); any other uid names ReplicaSet web.
 */
function refFromUid(uid: string): OwnerReference {
  const m = /^(rs|rc)-uid-(.+)$/.exec(uid);
  if (m?.[1] === 'rc') return controllerRefTo(uid, m[2], 'ReplicationController', 'v1');
  return controllerRefTo(uid, m ? m[2] : 'web');
}

export interface PodOpts {
  name: string;
  uid?: string;
  ns?: string;
  labels?: Labels | null;
  /** controller uid (a controller:true reference), or full owner references */
  owner?: string | OwnerReference[];
  node?: string;
  phase?: string;
  /** true/false: a Ready condition with that status; undefined: no Ready condition */
  ready?: boolean;
  /** Ready lastTransitionTime, ms before NOW; null: an explicit null time */
  readyAgo?: number | null;
  createdAgo?: number | null;
  deleting?: boolean;
  cost?: string;
  restarts?: number[];
  sidecarRestarts?: number[]; // restart counts of restartable init containers
  initRestarts?: number[]; // restart counts of ordinary init containers
}

export function pod(o: PodOpts): Pod {
  const uid = o.uid ?? `pod-uid-${o.name}`;
  const conditions: any[] = [{ type: 'PodScheduled', status: 'True', lastTransitionTime: ago(DAY) }];
  if (o.ready !== undefined) {
    conditions.push({
      type: 'Ready',
      status: o.ready ? 'True' : 'False',
      lastTransitionTime: o.readyAgo === null ? null : ago(o.readyAgo ?? DAY),
    });
  }
  const initContainers: any[] = [];
  const initStatuses: any[] = [];
  (o.sidecarRestarts ?? []).forEach((r, i) => {
    initContainers.push({ name: `sidecar-${i}`, restartPolicy: 'Always' });
    initStatuses.push({ name: `sidecar-${i}`, restartCount: r });
  });
  (o.initRestarts ?? []).forEach((r, i) => {
    initContainers.push({ name: `init-${i}` });
    initStatuses.push({ name: `init-${i}`, restartCount: r });
  });
  const p: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: o.name,
      namespace: o.ns ?? 'default',
      uid,
      creationTimestamp: o.createdAgo === null ? null : ago(o.createdAgo ?? 2 * DAY),
      labels: o.labels === undefined ? { app: 'web' } : o.labels,
    },
    spec: { containers: [{ name: 'c0' }] },
    status: {
      phase: o.phase === undefined ? 'Running' : o.phase,
      conditions,
      containerStatuses: (o.restarts ?? [0]).map((r, i) => ({ name: `c${i}`, restartCount: r })),
    },
  };
  if (o.node !== '') p.spec!.nodeName = o.node ?? 'node-1';
  if (o.phase === '') delete p.status!.phase;
  if (initContainers.length) {
    p.spec!.initContainers = initContainers;
    p.status!.initContainerStatuses = initStatuses;
  }
  if (o.owner !== undefined) p.metadata.ownerReferences = typeof o.owner === 'string' ? [refFromUid(o.owner)] : o.owner;
  if (o.deleting) p.metadata.deletionTimestamp = ago(10 * SECOND);
  if (o.cost !== undefined) p.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': o.cost };
  return p;
}

export interface RsOpts {
  name?: string;
  uid?: string;
  ns?: string;
  replicas?: number;
  selector?: LabelSelector | null;
  templateLabels?: Labels | null;
  /** uid of the controller owner (a Deployment) */
  owner?: string;
  generation?: number;
  status?: ReplicaSetStatus;
  deleting?: boolean;
  minReadySeconds?: number;
}

export function rs(o: RsOpts = {}): ReplicaSet {
  const r: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: o.name ?? 'web',
      namespace: o.ns ?? 'default',
      uid: o.uid ?? `rs-uid-${o.name ?? 'web'}`,
      generation: o.generation ?? 1,
      creationTimestamp: ago(30 * DAY),
    },
    spec: {
      replicas: o.replicas ?? 1,
      selector: o.selector === undefined ? { matchLabels: { app: 'web' } } : o.selector,
      template: { metadata: { labels: o.templateLabels === undefined ? { app: 'web' } : o.templateLabels }, spec: { containers: [{ name: 'main' }] } },
    },
    status: o.status ?? { replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: o.generation ?? 1 },
  };
  if (o.minReadySeconds !== undefined) r.spec.minReadySeconds = o.minReadySeconds;
  if (o.owner) r.metadata.ownerReferences = [controllerRefTo(o.owner, 'web-deploy', 'Deployment')];
  if (o.deleting) r.metadata.deletionTimestamp = ago(MINUTE);
  return r;
}

export function rc(o: Omit<RsOpts, 'selector'> & { selector?: Labels | null; ownerRef?: OwnerReference } = {}): ReplicationController {
  const r: ReplicationController = {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: {
      name: o.name ?? 'web-rc',
      namespace: o.ns ?? 'default',
      uid: o.uid ?? `rc-uid-${o.name ?? 'web-rc'}`,
      generation: o.generation ?? 1,
      creationTimestamp: ago(30 * DAY),
    },
    spec: {
      replicas: o.replicas ?? 1,
      selector: o.selector === undefined ? { app: 'web' } : o.selector,
      template: { metadata: { labels: o.templateLabels === undefined ? { app: 'web' } : o.templateLabels }, spec: { containers: [{ name: 'main' }] } },
    },
    status: o.status ?? { replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: o.generation ?? 1 },
  };
  if (o.minReadySeconds !== undefined) r.spec.minReadySeconds = o.minReadySeconds;
  if (o.ownerRef) r.metadata.ownerReferences = [o.ownerRef];
  if (o.deleting) r.metadata.deletionTimestamp = ago(MINUTE);
  return r;
}

export const ctl = (r: ReplicaSet): Controller => fromReplicaSet(r);
export const ctlRC = (r: ReplicationController): Controller => fromReplicationController(r);

export function snap(items: { replicaSets?: ReplicaSet[]; rcs?: ReplicationController[]; pods?: Pod[] }): Snapshot {
  return { controllers: { ReplicaSet: items.replicaSets ?? [], ReplicationController: items.rcs ?? [] }, pods: items.pods ?? [] };
}
