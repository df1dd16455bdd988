// "Which pods may this sync read": the one question every way of running a sync asks of its pod
// cache. upstream's syncReplicaSet lists the pods of the controller's namespace (the pod lister,
// filtered by the selector in claimPods) and, from 1.34, the pods its controller-reference index
// (controller.OrphanPodIndex / PodControllerUIDIndex, keyed by namespace, kind, name and uid)
// files under the controller. Three caches answer it here: a snapshot's index (core/pod-index.ts),
// the informer indexers of `run` (src/controller/candidate-pods.ts) and the journal state of a
// replayed audit log (src/history/journal-state.ts). They answer through this one interface, and
// test/core/candidate-pods.property.test.ts holds all three to the same answers, so `explain`,
// `run` and `history` cannot disagree on a pod silently.

import { controllerRef } from './pod.js';
import type { Selector } from './selector.js';
import type { Pod } from './types.js';

/** A controller as the pod caches know it: the key of upstream's controller-reference index. */
export interface PodOwnerKey {
  kind: string;
  name: string;
  uid: string;
}

export interface CandidatePods {
  /**
   * Pods of the namespace whose controller reference carries `uid`, in cache order; given the
   * owner's kind and name (1.34+), only those whose reference names them too.
   */
  controlledBy(ns: string, uid: string, owner?: { kind: string; name: string }): readonly Pod[];
  /** Pods of the namespace matching the selector (whoever owns them), in cache order. */
  matching(ns: string, selector: Selector): readonly Pod[];
  /** Cache order between two pods of one namespace: negative when `a` is listed first. */
  compare(a: Pod, b: Pod): number;
}

/**
 * The pods one sync of a controller reads (syncReplicaSet's list before FilterActivePods): those
 * matching its selector or controlled by it, once each, in cache order. Given `owner` (the 1.34+
 * index), a pod whose reference carries the uid under another kind or name is not listed at all.
 */
export function candidatesOf(pods: CandidatePods, ns: string, uid: string, selector: Selector, owner?: PodOwnerKey): Pod[] {
  const a = pods.matching(ns, selector);
  const b = pods.controlledBy(ns, uid, owner);
  // Both lists are in cache order: merge them, keeping one copy of a pod in both. A matching pod
  // whose reference carries the uid under another kind or name is skipped: the 1.34+ index files
  // it elsewhere, so the sync never lists it.
  const out: Pod[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && owner && refersToOtherKindOrName(a[i], owner)) {
      i++;
      continue;
    }
    const order = j >= b.length ? -1 : i >= a.length ? 1 : a[i] === b[j] ? 0 : pods.compare(a[i], b[j]);
    if (order < 0) out.push(a[i++]);
    else {
      if (order === 0) i++;
      out.push(b[j++]);
    }
  }
  return out;
}

/**
 * The pod's controller reference carries this uid but names another kind or name: from 1.34
 * upstream's index key (namespace/kind/name/uid) differs from the controller's, so a sync never
 * lists the pod, whatever its labels.
 */
function refersToOtherKindOrName(p: Pod, owner: PodOwnerKey): boolean {
  const ref = controllerRef(p);
  return ref !== undefined && ref.uid === owner.uid && (ref.kind !== owner.kind || ref.name !== owner.name);
}

/** Whether a pod controlled by `owner.uid` is filed under this owner by the 1.34+ index (always, without one). */
export function filedUnder(p: Pod, owner: { kind: string; name: string } | undefined): boolean {
  if (!owner) return true;
  const ref = controllerRef(p);
  return ref !== undefined && ref.kind === owner.kind && ref.name === owner.name;
}
