// How the watch log pane words what happened: an informer's change to a pod or a controller
// ("rs shop/web scaled 3→5"), and a controller action ("rs shop/web: create pod web-x2k9p").
// The services hand over the objects and the structured actions; only the words are made here.

import { CONTROLLER_KINDS, controllerKindInfo, namespaceOf } from '../core/controller.js';
import { isPodReady } from '../core/pod.js';
import type { ControllerKind, Pod, ReplicaSet, ReplicationController } from '../core/types.js';

type Obj = Pod | ReplicaSet | ReplicationController;
/** "pods", or the resource of a controller kind (replicasets, replicationcontrollers). */
export type WatchedResource = string;

function short(resource: WatchedResource): string {
  if (resource === 'pods') return 'pod';
  return CONTROLLER_KINDS.find((k) => k.resource === resource)?.shortName ?? resource;
}

function ref(resource: WatchedResource, o: Obj): string {
  return `${short(resource)} ${namespaceOf(o)}/${o.metadata.name}`;
}

function ownerOf(o: Obj): string | null {
  const r = o.metadata.ownerReferences?.find((x) => x.controller === true);
  return r ? `${CONTROLLER_KINDS.find((k) => k.kind === r.kind)?.shortName ?? r.kind.toLowerCase()}/${r.name}` : null;
}

export function describeAdd(resource: WatchedResource, o: Obj): string {
  if (resource === 'pods') {
    const owner = ownerOf(o);
    return `${ref(resource, o)} added${owner ? ` (owner ${owner})` : ' (no owner)'}`;
  }
  return `${ref(resource, o)} added (replicas ${(o as ReplicaSet).spec?.replicas ?? 1})`;
}

export function describeDelete(resource: WatchedResource, o: Obj): string {
  return `${ref(resource, o)} deleted`;
}

function podChanges(a: Pod, b: Pod): string[] {
  const parts: string[] = [];
  if (!a.metadata.deletionTimestamp && b.metadata.deletionTimestamp) parts.push('terminating');
  const oa = ownerOf(a);
  const ob = ownerOf(b);
  if (oa !== ob) parts.push(ob === null ? `released by ${oa}` : oa === null ? `adopted by ${ob}` : `owner ${oa}→${ob}`);
  if ((a.spec?.nodeName ?? '') !== (b.spec?.nodeName ?? '') && b.spec?.nodeName) parts.push(`scheduled to ${b.spec.nodeName}`);
  if ((a.status?.phase ?? '') !== (b.status?.phase ?? '')) parts.push(`${a.status?.phase || 'no phase'}→${b.status?.phase || 'no phase'}`);
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) parts.push(rb ? 'ready' : 'not ready');
  if (JSON.stringify(a.metadata.labels ?? {}) !== JSON.stringify(b.metadata.labels ?? {})) parts.push('labels changed');
  const cost = 'controller.kubernetes.io/pod-deletion-cost';
  const ca = a.metadata.annotations?.[cost];
  const cb = b.metadata.annotations?.[cost];
  if (ca !== cb) parts.push(`deletion cost ${ca ?? '-'}→${cb ?? '-'}`);
  return parts;
}

function controllerChanges(a: ReplicaSet, b: ReplicaSet, status: boolean): string[] {
  const parts: string[] = [];
  const da = a.spec?.replicas ?? 1;
  const db = b.spec?.replicas ?? 1;
  if (da !== db) parts.push(`scaled ${da}→${db}`);
  else if ((a.metadata.generation ?? 0) !== (b.metadata.generation ?? 0)) parts.push(`spec changed (generation ${b.metadata.generation ?? 0})`);
  if (!a.metadata.deletionTimestamp && b.metadata.deletionTimestamp) parts.push('being deleted');
  const sa = a.status ?? {};
  const sb = b.status ?? {};
  if (
    status &&
    ((sa.replicas ?? 0) !== (sb.replicas ?? 0) ||
      (sa.readyReplicas ?? 0) !== (sb.readyReplicas ?? 0) ||
      (sa.availableReplicas ?? 0) !== (sb.availableReplicas ?? 0))
  ) {
    parts.push(`status replicas ${sb.replicas ?? 0} ready ${sb.readyReplicas ?? 0} available ${sb.availableReplicas ?? 0}`);
  }
  return parts;
}

/**
 * The change between two versions of an object that a reader cares about; null for noise.
 * `status: false` leaves out a controller's status change (reconcile mode: the controller wrote
 * it, and its action line already says so).
 */
export function describeUpdate(resource: WatchedResource, before: Obj, after: Obj, opts: { status?: boolean } = {}): string | null {
  const parts =
    resource === 'pods' ? podChanges(before as Pod, after as Pod) : controllerChanges(before as ReplicaSet, after as ReplicaSet, opts.status !== false);
  return parts.length ? `${ref(resource, after)} ${parts.join(', ')}` : null;
}

/** What a controller did, as its sync reports it (runtime's ActionOutcome, by shape: render reads no runtime). */
export interface ControllerAction {
  action: 'adopt' | 'release' | 'create' | 'delete' | 'status';
  pod?: string;
  ok: boolean;
  code?: number;
  error?: string;
  note?: string;
  /** A status write that was refused once, read again and written once more. */
  retried?: { code: number; reason: string };
}

/** Why a status write went twice, in words: a 409 is the object changing between the read and the write. */
function retryText(kind: ControllerKind, r: { code: number; reason: string }): string {
  if (r.code === 409 || r.reason === 'Conflict') return `status write retried after a conflict (409): the ${kind} changed since it was read`;
  return `status write retried after ${r.code ? `${r.code} ` : ''}${r.reason || 'an error'}`;
}

/** One controller action as a log line: `rs shop/web: create pod web-x2k9p`; a failure is an error line. */
export function actionText(kind: ControllerKind, key: string, a: ControllerAction): { level: 'action' | 'error'; text: string } {
  const what = a.action === 'status' ? 'update status' : `${a.action}${a.pod ? ` pod ${a.pod}` : ''}`;
  const head = `${controllerKindInfo(kind).shortName} ${key}: ${what}`;
  const retry = a.retried ? `; ${retryText(kind, a.retried)}` : '';
  if (a.ok) return { level: 'action', text: `${head}${a.note ? ` (${a.note})` : ''}${retry}` };
  return { level: 'error', text: `${head} failed${a.code ? ` (${a.code})` : ''}${a.error ? `: ${a.error}` : ''}${retry}` };
}
