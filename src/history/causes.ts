// Why a controller acted: the writes since its last sync that changed something it counts (its
// replicas, selector or template; a pod of it created, deleted, relabelled, becoming ready or not),
// each a chain back to a write by someone who is not a controller. A ReplicaSet scaled by the
// deployment controller goes on to the change of its Deployment that the rollout carries out; a
// Deployment scaled by the horizontal-pod-autoscaler ends there (its metrics are not in the log).
//
// Pure: the replay tells it each write with the object before and after; a sync asks for its cause.

import { kindKey } from '../core/object-key.js';
import { controllerRef } from '../core/pod.js';
import type { Pod } from '../core/types.js';
import { isDeploymentController } from './agents.js';
import type { ApiWrite, CauseStep, HistoryVerb } from './types.js';

type Obj = Record<string, any>;

/** The chains waiting for one controller's next sync, at most this many (the newest kept). */
const MAX_PENDING = 16;

interface DeploymentSeen {
  replicas: number;
  images: string;
  template: string;
}

class NamespaceCauses {
  /** kindKey(kind, name) → chains (nearest first) of changes since its last sync, oldest first. */
  readonly pending = new Map<string, CauseStep[][]>();
  /** kindKey(kind, name) → the cause of its last sync: the next syncs carry on with it when nothing new happened. */
  readonly last = new Map<string, CauseStep[] | null>();
  readonly deployments = new Map<string, DeploymentSeen>();
  /** Deployment name → the last change to it by someone other than the deployment controller. */
  readonly deploymentCause = new Map<string, CauseStep[]>();
}

export class CauseTracker {
  private readonly namespaces = new Map<string, NamespaceCauses>();

  private ns(name: string): NamespaceCauses {
    let s = this.namespaces.get(name);
    if (!s) this.namespaces.set(name, (s = new NamespaceCauses()));
    return s;
  }

  /**
   * A write of a ReplicaSet or ReplicationController by anyone but that controller's own sync
   * (its status writes are not causes). `before`/`after` are the object around the write.
   */
  controllerChanged(w: ApiWrite, kind: string, name: string, before: Obj | undefined, after: Obj | undefined): void {
    const ns = this.ns(w.namespace);
    const object = { kind, namespace: w.namespace, name };
    const step = (field: string, change: string): CauseStep => ({ time: w.time, user: w.user, verb: verbOf(w), object, field, change });
    const steps: CauseStep[] = [];
    if (w.verb === 'create' && w.subresource === null) steps.push(step('the object itself', `created (replicas ${after?.spec?.replicas ?? 1})`));
    else if (w.verb === 'delete' || w.verb === 'deletecollection') steps.push(step('the object itself', 'deleted'));
    else if (before) {
      const r0 = replicasOf(before);
      const r1 = w.subresource === 'scale' ? (after?.spec?.replicas ?? w.request?.spec?.replicas) : after ? replicasOf(after) : undefined;
      if (typeof r1 === 'number' && r0 !== r1) steps.push(step('spec.replicas', `${r0} → ${r1}`));
      if (after && w.subresource === null) {
        if (json(before.spec?.selector) !== json(after.spec?.selector)) steps.push(step('spec.selector', 'changed'));
        if (json(before.spec?.template) !== json(after.spec?.template))
          steps.push(step('spec.template', templateChange(before.spec?.template, after.spec?.template)));
        if ((before.metadata?.deletionTimestamp ?? null) === null && after.metadata?.deletionTimestamp)
          steps.push(step('metadata.deletionTimestamp', 'deletion started'));
      }
    }
    if (steps.length === 0) return;
    // the deployment controller acts on its Deployment: what changed there is the next link
    // a scale's answer is a Scale: the owner is on the object before it
    const o = w.subresource === 'scale' ? before : (after ?? before);
    const owner = o ? controllerRef(o) : undefined;
    const further = isDeploymentController(w) && owner?.kind === 'Deployment' ? (ns.deploymentCause.get(owner.name) ?? null) : null;
    for (const s of steps) this.add(ns, kindKey(kind, name), further && s.field !== 'spec.template' ? [s, ...further] : [s]);
  }

  /**
   * A write of a pod that changed something the controllers in `affected` count, by someone other
   * than the controller acting on it (its own creates, deletes and claims are results, not causes).
   */
  podChanged(w: ApiWrite, name: string, before: Pod | undefined, after: Obj | undefined, affected: readonly string[]): void {
    if (affected.length === 0) return;
    const ns = this.ns(w.namespace);
    const object = { kind: 'Pod', namespace: w.namespace, name };
    const step = (field: string, change: string): CauseStep => ({ time: w.time, user: w.user, verb: verbOf(w), object, field, change });
    const steps: CauseStep[] = [];
    if (w.verb === 'create' && w.subresource === null) steps.push(step('the object itself', 'created'));
    else if (w.subresource === 'eviction') steps.push(step('metadata.deletionTimestamp', 'evicted'));
    else if (w.verb === 'delete' || w.verb === 'deletecollection') {
      // the kubelet's final delete of a pod already terminating changes nothing the controller counts
      if (!before?.metadata.deletionTimestamp)
        steps.push(step(after?.metadata?.deletionTimestamp && !goneNow(after) ? 'metadata.deletionTimestamp' : 'the object itself', 'deleted'));
    } else if (before && after) {
      const p0 = before.status?.phase ?? 'Pending';
      const p1 = after.status?.phase ?? p0;
      if (p0 !== p1) steps.push(step('status.phase', `${p0} → ${p1}`));
      const r0 = readyOf(before);
      const r1 = readyOf(after as Pod);
      if (r0 !== r1) steps.push(step('a Ready condition', `${r0} → ${r1}`));
      const l0 = labelsText(before.metadata.labels);
      const l1 = labelsText(after.metadata?.labels);
      if (l0 !== l1) steps.push(step('metadata.labels', `${l0 || '(none)'} → ${l1 || '(none)'}`));
      const o0 = controllerRef(before)?.uid;
      const o1 = after.metadata ? controllerRef(after as Pod)?.uid : undefined;
      if (o0 !== o1)
        steps.push(
          step(
            'metadata.ownerReferences',
            o1 ? `controller ${controllerRef(after as Pod)!.kind} ${controllerRef(after as Pod)!.name}` : 'controller reference removed',
          ),
        );
      if (!before.metadata.deletionTimestamp && after.metadata?.deletionTimestamp) steps.push(step('metadata.deletionTimestamp', 'deletion started'));
    }
    for (const s of steps) for (const key of affected) this.add(ns, key, [s]);
  }

  /** A write of a Deployment: the change the deployment controller's next writes carry out. */
  deploymentChanged(w: ApiWrite, name: string, after: Obj | undefined): void {
    const ns = this.ns(w.namespace);
    if (w.verb === 'delete' || w.verb === 'deletecollection') {
      ns.deployments.delete(name);
      return;
    }
    if (w.subresource === 'status') return;
    const before = ns.deployments.get(name);
    const replicas = w.subresource === 'scale' ? (after?.spec?.replicas ?? w.request?.spec?.replicas) : after?.spec?.replicas;
    const seen: DeploymentSeen | undefined =
      w.subresource === 'scale'
        ? before && typeof replicas === 'number'
          ? { ...before, replicas }
          : undefined
        : after?.spec
          ? { replicas: typeof replicas === 'number' ? replicas : 1, images: imagesOf(after.spec.template), template: json(after.spec.template) }
          : undefined;
    if (seen) ns.deployments.set(name, seen);
    else ns.deployments.delete(name);
    if (isDeploymentController(w)) return;
    const object = { kind: 'Deployment', namespace: w.namespace, name };
    const step = (field: string, change: string): CauseStep => ({ time: w.time, user: w.user, verb: verbOf(w), object, field, change });
    let s: CauseStep | null = null;
    if (w.verb === 'create' && w.subresource === null) s = step('the object itself', `created (replicas ${seen?.replicas ?? 1})`);
    else if (before && seen && before.template !== seen.template)
      s = step('spec.template', before.images !== seen.images ? `image ${before.images} → ${seen.images}` : 'changed');
    else if (before && seen && before.replicas !== seen.replicas) s = step('spec.replicas', `${before.replicas} → ${seen.replicas}`);
    else if (!before && (w.subresource === 'scale' || seen))
      s = step(
        w.subresource === 'scale' ? 'spec.replicas' : 'spec',
        typeof replicas === 'number' ? `→ ${replicas} (before unknown: first seen here)` : 'changed (first seen here)',
      );
    if (s) ns.deploymentCause.set(name, [s]);
  }

  /** The last change of Deployment `name` by someone other than the deployment controller (a chain of one), if the log showed one. */
  deploymentCauseOf(namespace: string, name: string): CauseStep[] | null {
    return this.ns(namespace).deploymentCause.get(name) ?? null;
  }

  /**
   * The cause of a sync of `key` whose first write is `verb`: the pending change that explains
   * it best (nearest first), or, when nothing changed since its last sync, the cause of that one
   * (the work goes on: a status written once the pods it created are seen).
   */
  causeOf(namespace: string, key: string, verb: HistoryVerb): CauseStep[] | null {
    const ns = this.ns(namespace);
    const pending = ns.pending.get(key) ?? [];
    ns.pending.delete(key);
    let pick: CauseStep[] | undefined;
    const newest = (f: (c: CauseStep[]) => boolean) => [...pending].reverse().find(f);
    const replicas = (c: CauseStep[], dir: 1 | -1) => {
      const m = c[0].field === 'spec.replicas' ? /^(\d+) → (\d+)$/.exec(c[0].change) : null;
      return m !== null && Math.sign(Number(m[2]) - Number(m[1])) === dir;
    };
    if (verb === 'delete')
      pick =
        newest((c) => replicas(c, -1)) ??
        newest(
          (c) => c[0].object.kind === 'Pod' && (c[0].change === 'created' || c[0].field === 'metadata.labels' || c[0].field === 'metadata.ownerReferences'),
        );
    else if (verb === 'create')
      pick =
        newest((c) => replicas(c, 1)) ??
        newest((c) => (c[0].object.kind !== 'Pod' && c[0].change.startsWith('created')) || (c[0].object.kind === 'Pod' && c[0].change !== 'created'));
    else if (verb === 'adopt' || verb === 'release')
      pick = newest((c) => c[0].field === 'metadata.labels' || c[0].field === 'spec.selector' || c[0].change.startsWith('created'));
    pick ??= pending.at(-1);
    const cause = pick ?? ns.last.get(key) ?? null;
    ns.last.set(key, cause);
    return cause;
  }

  /** The controller is gone: nothing waits for it. */
  forget(namespace: string, key: string): void {
    const ns = this.ns(namespace);
    ns.pending.delete(key);
    ns.last.delete(key);
  }

  private add(ns: NamespaceCauses, key: string, chain: CauseStep[]): void {
    let list = ns.pending.get(key);
    if (!list) ns.pending.set(key, (list = []));
    list.push(chain);
    if (list.length > MAX_PENDING) list.splice(0, list.length - MAX_PENDING);
  }
}

function verbOf(w: ApiWrite): HistoryVerb {
  if (w.subresource === 'scale') return 'scale';
  if (w.subresource === 'status') return 'status';
  if (w.verb === 'deletecollection') return 'delete';
  return w.verb;
}

function replicasOf(o: Obj): number {
  return typeof o.spec?.replicas === 'number' ? o.spec.replicas : 1;
}

function json(v: unknown): string {
  return JSON.stringify(v ?? null);
}

function imagesOf(template: Obj | undefined): string {
  const cs = template?.spec?.containers;
  return Array.isArray(cs) ? cs.map((c: Obj) => String(c?.image ?? '?')).join(',') : '?';
}

function templateChange(a: Obj | undefined, b: Obj | undefined): string {
  const i0 = imagesOf(a);
  const i1 = imagesOf(b);
  if (i0 !== i1) return `image ${i0} → ${i1}`;
  const l0 = labelsText(a?.metadata?.labels);
  const l1 = labelsText(b?.metadata?.labels);
  return l0 !== l1 ? `labels ${l0 || '(none)'} → ${l1 || '(none)'}` : 'changed';
}

function labelsText(l: Record<string, string> | null | undefined): string {
  return Object.entries(l ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

function readyOf(p: Pod | Obj): string {
  const c = (p.status?.conditions as { type?: string; status?: string }[] | undefined)?.find((x) => x?.type === 'Ready');
  return c?.status ?? 'not set';
}

function goneNow(o: Obj): boolean {
  const m = o.metadata ?? {};
  return !m.deletionTimestamp || (m.deletionGracePeriodSeconds ?? 0) === 0;
}
