// Background garbage collection by ownerReferences (as kube-controller-manager's garbage
// collector): dependents of a deleted owner are deleted, or freed from the dangling reference
// when another owner remains; `orphan` and `foregroundDeletion` finalizers are processed.
// Only an owner that existed in the sandbox and was deleted counts as gone: an object whose owner
// was never here (a seed cut out of a bigger cluster: ReplicaSets without their Deployment, pods
// of a ReplicaSet left out) is kept, so what the user loads stays until they delete its owner.
import type { AuditLog } from './audit.js';
import { act, CONTROLLER_MANAGER, USERS } from './internal.js';
import type { Registry } from './registry.js';
import { resourceByName, resourceForKind, RESOURCES, type ResourceDef } from './resources.js';
import { keyOf, type Store, type StoreEvent } from './store.js';
import { clone, type Obj } from './util.js';

interface Ref {
  resource: string;
  key: string;
}

export class GarbageCollector {
  /** owner uid → dependents (resource + storage key). */
  private readonly dependents = new Map<string, Map<string, Ref>>();
  private readonly queue = new Map<string, Ref>();
  private readonly owners = new Set<string>();
  /** uid → where the object is stored, for owners. */
  private readonly byUid = new Map<string, Ref>();
  /** The uids of objects that were in the sandbox and are gone: the only owners whose dependents are collected. */
  private readonly deleted = new Set<string>();
  private scheduled = false;
  private unsubscribe?: () => void;
  private stopped = false;

  constructor(
    private readonly registry: Registry,
    private readonly store: Store,
    private readonly audit: AuditLog,
  ) {}

  start(): void {
    for (const r of RESOURCES) for (const o of this.store.list(r.name)) this.index(r.name, o, undefined);
    this.unsubscribe = this.store.subscribe((ev) => this.observe(ev));
    for (const r of RESOURCES) for (const o of this.store.list(r.name)) this.enqueueObject(r.name, o);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
  }

  private index(resource: string, o: Obj | undefined, prev: Obj | undefined): void {
    const ref: Ref = { resource, key: keyOf(o ?? prev!) };
    const id = `${resource}|${ref.key}`;
    if (o) this.byUid.set(o.metadata.uid, ref);
    else if (prev) {
      this.byUid.delete(prev.metadata.uid);
      this.deleted.add(prev.metadata.uid);
    }
    for (const r of (prev?.metadata?.ownerReferences ?? []) as Obj[]) this.dependents.get(r.uid)?.delete(id);
    for (const r of (o?.metadata?.ownerReferences ?? []) as Obj[]) {
      let m = this.dependents.get(r.uid);
      if (!m) {
        m = new Map();
        this.dependents.set(r.uid, m);
      }
      m.set(id, ref);
    }
  }

  private observe(ev: StoreEvent): void {
    if (ev.type === 'DELETED') {
      this.index(ev.resource, undefined, ev.prev);
      // Its dependents may now be dangling; its owners may be waiting for it (foreground).
      const uid = ev.prev?.metadata?.uid;
      for (const ref of this.dependents.get(uid)?.values() ?? []) this.queue.set(`${ref.resource}|${ref.key}`, ref);
      for (const r of (ev.prev?.metadata?.ownerReferences ?? []) as Obj[]) this.owners.add(r.uid);
    } else {
      this.index(ev.resource, ev.object, ev.prev);
      this.enqueueObject(ev.resource, ev.object);
    }
    this.schedule();
  }

  private enqueueObject(resource: string, o: Obj): void {
    if ((o.metadata.ownerReferences ?? []).length > 0) this.queue.set(`${resource}|${keyOf(o)}`, { resource, key: keyOf(o) });
    const fins = (o.metadata.finalizers ?? []) as string[];
    if (o.metadata.deletionTimestamp && (fins.includes('orphan') || fins.includes('foregroundDeletion'))) this.owners.add(o.metadata.uid);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      if (!this.stopped) this.drain();
    }, 1).unref();
  }

  private lookup(resource: string, key: string): Obj | undefined {
    const [a, b] = key.split('/');
    return b === undefined ? this.store.get(resource, undefined, a) : this.store.get(resource, a, b);
  }

  /** Whether an owner reference of an object in `ns` points at an existing object: 'absent' only for an owner deleted here. */
  private ownerState(ref: Obj, ns: string | undefined): 'present' | 'absent' | 'unknown' {
    const r = resourceForKind(ref.apiVersion, ref.kind);
    if (!r) return 'unknown';
    const o = this.store.get(r.name, r.namespaced ? ns : undefined, ref.name);
    if (o && o.metadata.uid === ref.uid) return 'present';
    return this.deleted.has(ref.uid) ? 'absent' : 'unknown';
  }

  /** Processes now what is queued, until nothing more is (deletes queue their dependents). */
  sync(): void {
    // Bounded: an owner waiting on a dependent that never goes is requeued by its own finalizer writes.
    for (let round = 0; round < 100 && !this.stopped && (this.queue.size > 0 || this.owners.size > 0); round++) this.drain();
  }

  private drain(): void {
    const items = [...this.queue.values()];
    this.queue.clear();
    for (const ref of items) this.processDependent(ref);
    const owners = [...this.owners];
    this.owners.clear();
    for (const uid of owners) this.processOwner(uid);
  }

  private processDependent(ref: Ref): void {
    const o = this.lookup(ref.resource, ref.key);
    if (!o) return;
    const res = resourceByName(ref.resource)!;
    const refs = (o.metadata.ownerReferences ?? []) as Obj[];
    if (refs.length === 0) return;
    const states = refs.map((r) => this.ownerState(r, o.metadata.namespace));
    const absent = refs.filter((_, i) => states[i] === 'absent');
    if (absent.length === 0) return;
    // An owner being deleted in the foreground waits for this dependent: delete it in the foreground too.
    if (absent.length === refs.length) {
      if (o.metadata.deletionTimestamp) return;
      this.deleteObject(res, o, 'Background');
      return;
    }
    const uids = new Set(absent.map((r) => r.uid));
    this.removeOwnerRefs(res, o, uids);
  }

  private processOwner(uid: string): void {
    const owner = this.findByUid(uid);
    if (!owner?.obj.metadata.deletionTimestamp) return;
    const { res, obj } = owner;
    const fins = (obj.metadata.finalizers ?? []) as string[];
    const deps = [...(this.dependents.get(uid)?.values() ?? [])].map((r) => ({ r, o: this.lookup(r.resource, r.key) })).filter((d) => d.o);
    if (fins.includes('orphan')) {
      for (const d of deps) this.removeOwnerRefs(resourceByName(d.r.resource)!, d.o!, new Set([uid]));
      this.removeFinalizer(res, obj, 'orphan');
      return;
    }
    if (fins.includes('foregroundDeletion')) {
      const remaining = deps.filter((d) => ((d.o!.metadata.ownerReferences ?? []) as Obj[]).some((r) => r.uid === uid));
      for (const d of remaining) if (!d.o!.metadata.deletionTimestamp) this.deleteObject(resourceByName(d.r.resource)!, d.o!, 'Foreground');
      const blocking = remaining.filter((d) => this.lookup(d.r.resource, d.r.key));
      if (blocking.length === 0) this.removeFinalizer(res, this.lookup(res.name, keyOf(obj)) ?? obj, 'foregroundDeletion');
    }
  }

  private findByUid(uid: string): { res: ResourceDef; obj: Obj } | undefined {
    const ref = this.byUid.get(uid);
    const obj = ref && this.lookup(ref.resource, ref.key);
    return obj && obj.metadata.uid === uid ? { res: resourceByName(ref.resource)!, obj } : undefined;
  }

  private deleteObject(res: ResourceDef, o: Obj, policy: 'Background' | 'Foreground'): void {
    const opts = { propagationPolicy: policy, preconditions: { uid: o.metadata.uid } };
    act(
      this.audit,
      USERS.gc,
      {
        verb: 'delete',
        resource: res.name,
        namespace: o.metadata.namespace,
        name: o.metadata.name,
        request: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/__internal', ...opts },
      },
      () => this.registry.delete(res, o.metadata.namespace, o.metadata.name, opts, { dryRun: false, user: USERS.gc }),
    );
  }

  private removeOwnerRefs(res: ResourceDef, o: Obj, uids: Set<string>): void {
    const refs = (o.metadata.ownerReferences ?? []) as Obj[];
    if (!refs.some((r) => uids.has(r.uid))) return;
    const ownerReferences = refs.filter((r) => !uids.has(r.uid));
    // The garbage collector's JSON merge patch of the owner references it keeps.
    const request = { metadata: { ownerReferences, uid: o.metadata.uid } };
    act(this.audit, USERS.gc, { verb: 'patch', resource: res.name, namespace: o.metadata.namespace, name: o.metadata.name, request }, () => {
      const next = clone(o);
      next.metadata.ownerReferences = ownerReferences;
      return this.registry.updateWith(res, o, next, { dryRun: false, user: USERS.gc, fieldManager: CONTROLLER_MANAGER });
    });
  }

  private removeFinalizer(res: ResourceDef, o: Obj, finalizer: string): void {
    const finalizers = ((o.metadata.finalizers ?? []) as string[]).filter((f) => f !== finalizer);
    act(
      this.audit,
      USERS.gc,
      { verb: 'patch', resource: res.name, namespace: o.metadata.namespace, name: o.metadata.name, request: { metadata: { finalizers, uid: o.metadata.uid } } },
      () => {
        const next = clone(o);
        next.metadata.finalizers = finalizers;
        return this.registry.updateWith(res, o, next, { dryRun: false, user: USERS.gc, fieldManager: CONTROLLER_MANAGER });
      },
    );
  }
}
