// The generic registry (k8s.io/apiserver/pkg/registry/generic/registry.Store) for the sandbox's
// resources: create, update, patch, graceful delete, the status and scale subresources, binding.
// HTTP handlers and the simulated controllers both go through it.
import { randomUUID } from 'node:crypto';
import { applyDefaults, normalize, prepareForCreate, prepareForUpdate } from './defaults.js';
import { alreadyExists, badRequest, conflict, forbidden, invalid, notFound, type FieldError, type GroupResource } from './errors.js';
import { managedFieldsAfter, type FieldManager } from './managed-fields.js';
import { applyPatch } from './patch.js';
import { apiVersionOf, resourceByName, RESOURCES, type ResourceDef } from './resources.js';
import { labelSelectorString } from './labels.js';
import type { Store } from './store.js';
import { isObj } from '../core/guards.js';
import { clone, deepEqual, generateName, rfc3339, type Obj } from './util.js';
import { unknownFields, validateObject, validateObjectMeta, validateObjectMetaUpdate, validateStatus, validateUpdate } from './validation.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteCtx {
  dryRun: boolean;
  /** Who writes (audit user): the kubeconfig user for HTTP requests, a system identity for controllers. */
  user: string;
  fieldValidation?: FieldValidation;
  /** Warning headers to send back (299 warnings). */
  warnings?: string[];
  /** Who the managedFields name for this write; without one they are stored as sent (seed, simulated components). */
  fieldManager?: FieldManager;
}

type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult {
  /** The object: its last state when deleted, its updated state when deletion is pending. */
  object: Obj;
  deleted: boolean;
}

const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];
const NAMESPACE_PURGE_MESSAGE =
  'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.';

function groupResource(res: ResourceDef): GroupResource {
  return { group: res.group, resource: res.name };
}

/** Objects as served: kind and apiVersion first. */
export function withType(res: ResourceDef, o: Obj): Obj {
  if (o.kind === res.kind && o.apiVersion === apiVersionOf(res)) return o;
  const { kind: _k, apiVersion: _a, ...rest } = o;
  return { kind: res.kind, apiVersion: apiVersionOf(res), ...rest };
}

function setManagedFields(o: Obj, entries: Obj[] | undefined): void {
  if (entries) o.metadata.managedFields = entries;
  else delete o.metadata.managedFields;
}

/** A mutating admission plugin run on creates after NamespaceLifecycle; it throws to refuse. */
export type Admission = (res: ResourceDef, o: Obj, ctx: WriteCtx) => void;

export class Registry {
  /** Admission plugins beyond NamespaceLifecycle (ServiceAccount), in order. */
  readonly admission: Admission[] = [];

  constructor(readonly store: Store) {}

  get(res: ResourceDef, ns: string | undefined, name: string): Obj {
    const o = this.store.get(res.name, res.namespaced ? ns : undefined, name);
    if (!o) throw notFound(groupResource(res), name);
    return o;
  }

  find(res: ResourceDef, ns: string | undefined, name: string): Obj | undefined {
    return this.store.get(res.name, res.namespaced ? ns : undefined, name);
  }

  // ---------------- create ----------------

  private checkType(res: ResourceDef, body: Obj): void {
    if (body.apiVersion !== undefined && body.apiVersion !== apiVersionOf(res)) {
      throw badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${apiVersionOf(res)})`);
    }
    if (body.kind !== undefined && body.kind !== res.kind) {
      throw badRequest(
        `the object provided is unrecognized (must be of type ${res.kind}): ${body.kind} in version "${body.apiVersion ?? ''}" cannot be handled as a ${res.kind}`,
      );
    }
  }

  private checkUnknownFields(res: ResourceDef, body: Obj, ctx: WriteCtx): void {
    const mode = ctx.fieldValidation ?? 'Warn';
    if (mode === 'Ignore') return;
    const unknown = unknownFields(res, body);
    if (unknown.length === 0) return;
    if (mode === 'Strict') {
      throw badRequest(
        `${res.kind} in version "${res.version}" cannot be handled as a ${res.kind}: strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`,
      );
    }
    for (const f of unknown) (ctx.warnings ??= []).push(`unknown field "${f}"`);
  }

  private dedupOwnerRefs(o: Obj, ctx: WriteCtx): void {
    const refs = o.metadata?.ownerReferences;
    if (!Array.isArray(refs)) return;
    const seen = new Set<string>();
    const dups: string[] = [];
    o.metadata.ownerReferences = refs.filter((r: Obj) => {
      const uid = String(r?.uid ?? '');
      if (seen.has(uid)) {
        dups.push(uid);
        return false;
      }
      seen.add(uid);
      return true;
    });
    if (dups.length) {
      (ctx.warnings ??= []).push(
        `.metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${dups.join(', ')}`,
      );
    }
  }

  /** NamespaceLifecycle admission: the namespace must exist and not be terminating. */
  private admitNamespace(res: ResourceDef, ns: string, name: string): void {
    if (!res.namespaced) return;
    const nsObj = this.store.get('namespaces', undefined, ns);
    if (!nsObj) throw notFound({ group: '', resource: 'namespaces' }, ns);
    if (nsObj.metadata.deletionTimestamp || nsObj.status?.phase === 'Terminating') {
      throw forbidden(groupResource(res), name, `unable to create new content in namespace ${ns} because it is being terminated`, [
        { reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' },
      ]);
    }
  }

  create(res: ResourceDef, ns: string | undefined, body: unknown, ctx: WriteCtx): Obj {
    if (!isObj(body)) throw badRequest('the body of the request is not a JSON object');
    this.checkType(res, body);
    this.checkUnknownFields(res, body, ctx);
    const o = clone(body);
    o.metadata = isObj(o.metadata) ? o.metadata : {};
    const meta = o.metadata;
    if (res.namespaced) {
      if (meta.namespace && ns && meta.namespace !== ns) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      meta.namespace = ns ?? meta.namespace;
    } else if (meta.namespace) {
      delete meta.namespace;
    }
    if (meta.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
    this.admitNamespace(res, meta.namespace, meta.name ?? '');
    // The field manager sees the object before mutating admission (create.go: UpdateNoErrors, then Admit).
    this.dedupOwnerRefs(o, ctx);
    const beforeAdmission = ctx.fieldManager ? clone(o) : undefined;
    for (const admit of this.admission) admit(res, o, ctx);
    this.dedupOwnerRefs(o, ctx);
    return this.createPrepared(res, o, ctx, true, beforeAdmission);
  }

  /** Stores a new object. `fresh` = a client create (status reset, system fields assigned). */
  private createPrepared(res: ResourceDef, o: Obj, ctx: WriteCtx, fresh: boolean, beforeAdmission?: Obj): Obj {
    const meta = o.metadata;
    if (fresh) {
      meta.uid = randomUUID();
      meta.creationTimestamp = rfc3339();
      delete meta.deletionTimestamp;
      delete meta.deletionGracePeriodSeconds;
      delete meta.selfLink;
      delete meta.generation;
      prepareForCreate(res, o);
    }
    const generated = !meta.name && typeof meta.generateName === 'string' && meta.generateName !== '';
    if (generated) meta.name = generateName(meta.generateName);
    applyDefaults(res, o);
    normalize(o);
    const errs: FieldError[] = [];
    validateObjectMeta(res, meta, errs);
    validateObject(res, o, errs);
    if (errs.length) throw invalid(res.kind, res.group, meta.name ?? '', errs);
    const typed = withType(res, o);
    if (ctx.fieldManager) {
      const seen = beforeAdmission ?? clone(o);
      const requested = seen.metadata?.managedFields;
      applyDefaults(res, seen, { admission: false });
      setManagedFields(typed, managedFieldsAfter({ res, apiVersion: apiVersionOf(res), next: normalize(seen), requested, fm: ctx.fieldManager }));
    }
    for (let attempt = 0; this.store.get(res.name, meta.namespace, meta.name); attempt++) {
      if (!generated || attempt >= 8) throw alreadyExists(groupResource(res), meta.name);
      typed.metadata.name = generateName(meta.generateName);
    }
    if (ctx.dryRun) return typed;
    this.store.put(res.name, typed);
    return typed;
  }

  /** Preloads an object as it is (status kept), filling only what is missing. */
  seed(res: ResourceDef, body: Obj): Obj {
    const o = clone(body);
    o.metadata = isObj(o.metadata) ? o.metadata : {};
    const meta = o.metadata;
    if (res.namespaced) meta.namespace ??= 'default';
    else delete meta.namespace;
    if (res.namespaced && !this.store.get('namespaces', undefined, meta.namespace)) {
      this.seed(resourceByName('namespaces')!, { metadata: { name: meta.namespace } });
    }
    meta.uid ??= randomUUID();
    meta.creationTimestamp ??= rfc3339();
    delete meta.resourceVersion;
    if (res.generation) meta.generation ??= 1;
    if (res.seedStatus) o.status ??= res.seedStatus();
    const existing = this.store.get(res.name, meta.namespace, meta.name ?? '');
    if (existing) throw alreadyExists(groupResource(res), meta.name);
    return this.createPrepared(res, o, { dryRun: false, user: 'seed' }, false);
  }

  // ---------------- update ----------------

  update(res: ResourceDef, ns: string | undefined, name: string, body: unknown, ctx: WriteCtx, sub?: 'status'): { object: Obj; created: boolean } {
    if (!isObj(body)) throw badRequest('the body of the request is not a JSON object');
    this.checkType(res, body);
    if (sub === undefined) this.checkUnknownFields(res, body, ctx);
    const next = clone(body);
    next.metadata = isObj(next.metadata) ? next.metadata : {};
    if ((next.metadata.name ?? '') !== name) {
      throw badRequest(`the name of the object (${next.metadata.name ?? ''}) does not match the name on the URL (${name})`);
    }
    if (res.namespaced) {
      if (next.metadata.namespace && next.metadata.namespace !== ns) {
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      next.metadata.namespace = ns;
    }
    this.dedupOwnerRefs(next, ctx);
    const old = this.find(res, ns, name);
    if (!old) {
      if (!res.allowCreateOnUpdate || sub) throw notFound(groupResource(res), name);
      delete next.metadata.resourceVersion;
      this.admitNamespace(res, ns ?? '', name);
      return { object: this.createPrepared(res, next, ctx, true), created: true };
    }
    return { object: this.updateWith(res, old, next, ctx, sub), created: false };
  }

  /** The common update path: preconditions, strategy, validation, no-op detection, delete-on-update. */
  updateWith(res: ResourceDef, old: Obj, next: Obj, ctx: WriteCtx, sub?: 'status'): Obj {
    const name = old.metadata.name;
    const requestedManagedFields = isObj(next.metadata) ? next.metadata.managedFields : undefined;
    const rv = next.metadata?.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== old.metadata.resourceVersion) throw conflict(groupResource(res), name);
    next = clone(next);
    next.metadata = isObj(next.metadata) ? next.metadata : {};
    const meta = next.metadata;
    if (!meta.uid) meta.uid = old.metadata.uid;
    if (old.metadata.creationTimestamp) meta.creationTimestamp = old.metadata.creationTimestamp;
    if (old.metadata.deletionTimestamp) meta.deletionTimestamp = old.metadata.deletionTimestamp;
    else delete meta.deletionTimestamp;
    if (old.metadata.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
    else delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    prepareForUpdate(res, next, old, sub);
    applyDefaults(res, next);
    normalize(next);
    const errs: FieldError[] = [];
    validateObjectMetaUpdate(res, meta, old.metadata, errs);
    if (sub === 'status') validateStatus(res, next, errs);
    else {
      validateObject(res, next, errs);
      validateUpdate(res, next, old, errs);
    }
    if (errs.length) throw invalid(res.kind, res.group, name, errs);
    const typed = withType(res, next);
    typed.metadata.resourceVersion = old.metadata.resourceVersion;
    if (ctx.fieldManager) {
      const fm = ctx.fieldManager;
      setManagedFields(typed, managedFieldsAfter({ res, apiVersion: apiVersionOf(res), live: old, next: typed, requested: requestedManagedFields, fm }));
    }
    if (deepEqual(typed, old)) return old;
    if (this.shouldDeleteDuringUpdate(typed, old)) {
      if (ctx.dryRun) return typed;
      const ev = this.store.remove(res.name, typed);
      return ev ? ev.object : typed;
    }
    if (ctx.dryRun) return typed;
    this.store.put(res.name, typed);
    return typed;
  }

  private shouldDeleteDuringUpdate(next: Obj, old: Obj): boolean {
    if (!next.metadata.deletionTimestamp) return false;
    if ((next.metadata.finalizers ?? []).length > 0) return false;
    if ((old.metadata.finalizers ?? []).length === 0) return false;
    const g = next.metadata.deletionGracePeriodSeconds;
    return g === undefined || g === 0;
  }

  // ---------------- patch ----------------

  patch(res: ResourceDef, ns: string | undefined, name: string, contentType: string, patchBody: unknown, ctx: WriteCtx, sub?: 'status'): Obj {
    const old = this.get(res, ns, name);
    const patched = applyPatch(contentType, res, old, patchBody);
    if (!isObj(patched.metadata)) patched.metadata = {};
    this.checkType(res, patched);
    this.dedupOwnerRefs(patched, ctx);
    return this.updateWith(res, old, patched, ctx, sub);
  }

  // ---------------- scale ----------------

  scaleOf(res: ResourceDef, o: Obj): Obj {
    const selector = res.scaleSelector ? res.scaleSelector(o) : labelSelectorString(o.spec?.selector);
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: o.metadata.name,
        namespace: o.metadata.namespace,
        uid: o.metadata.uid,
        resourceVersion: o.metadata.resourceVersion,
        creationTimestamp: o.metadata.creationTimestamp,
      },
      spec: { replicas: o.spec?.replicas ?? 0 },
      status: { replicas: o.status?.replicas ?? 0, selector },
    };
  }

  getScale(res: ResourceDef, ns: string | undefined, name: string): Obj {
    return this.scaleOf(res, this.get(res, ns, name));
  }

  updateScale(res: ResourceDef, ns: string | undefined, name: string, scale: unknown, ctx: WriteCtx): Obj {
    if (!isObj(scale)) throw badRequest('the body of the request is not a JSON object');
    const old = this.get(res, ns, name);
    if (scale.metadata?.name !== undefined && scale.metadata.name !== name) {
      throw badRequest(`the name of the object (${scale.metadata.name}) does not match the name on the URL (${name})`);
    }
    const replicas = scale.spec?.replicas ?? 0;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
      throw invalid('Scale', 'autoscaling', name, [{ type: 'Invalid', field: 'spec.replicas', value: replicas, detail: 'must be greater than or equal to 0' }]);
    }
    const rv = scale.metadata?.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== old.metadata.resourceVersion) throw conflict(groupResource(res), name);
    const next = clone(old);
    next.spec = { ...(next.spec ?? {}), replicas };
    return this.scaleOf(res, this.updateWith(res, old, next, ctx));
  }

  patchScale(res: ResourceDef, ns: string | undefined, name: string, contentType: string, patchBody: unknown, ctx: WriteCtx): Obj {
    const current = this.getScale(res, ns, name);
    const patched = applyPatch(contentType, 'Scale', current, patchBody);
    return this.updateScale(res, ns, name, patched, ctx);
  }

  // ---------------- binding ----------------

  bind(ns: string, name: string, binding: unknown, ctx: WriteCtx): void {
    const pods = resourceByName('pods')!;
    if (!isObj(binding) || !isObj(binding.target) || !binding.target.name) {
      throw invalid('Binding', '', name, [{ type: 'Required', field: 'target.name' }]);
    }
    const old = this.get(pods, ns, name);
    const gr = { group: '', resource: 'pods/binding' };
    if (old.metadata.deletionTimestamp) throw conflict(gr, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (old.spec?.nodeName) throw conflict(gr, name, `pod ${name} is already assigned to node "${old.spec.nodeName}"`);
    const next = clone(old);
    next.spec.nodeName = binding.target.name;
    const conds: Obj[] = (next.status.conditions ??= []);
    const c = conds.find((x) => x.type === 'PodScheduled');
    const cond = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339() };
    if (c) Object.assign(c, cond);
    else conds.push(cond);
    // Binding writes spec.nodeName and status together, bypassing the update strategy.
    normalize(next);
    if (ctx.dryRun) return;
    this.store.put('pods', next);
  }

  // ---------------- delete ----------------

  private gracePeriod(res: ResourceDef, o: Obj, opts: DeleteOptions): number | undefined {
    if (!res.gracefulDelete) return undefined;
    let g = opts.gracePeriodSeconds ?? o.spec?.terminationGracePeriodSeconds ?? 30;
    if (!o.spec?.nodeName) g = 0;
    const phase = o.status?.phase;
    if (phase === 'Failed' || phase === 'Succeeded') g = 0;
    if (g < 0) g = 1;
    return g;
  }

  private propagationFinalizers(res: ResourceDef, o: Obj, opts: DeleteOptions): string[] {
    let fins = [...((o.metadata.finalizers ?? []) as string[])];
    let policy = opts.propagationPolicy;
    if (!policy && opts.orphanDependents !== undefined) policy = opts.orphanDependents ? 'Orphan' : 'Background';
    const explicit = policy !== undefined;
    if (!policy) {
      // An existing propagation finalizer stays; otherwise the resource's default applies.
      if (fins.includes('orphan') || fins.includes('foregroundDeletion')) return fins;
      policy = res.defaultPropagation;
    }
    if (policy === 'Orphan') {
      fins = fins.filter((f) => f !== 'foregroundDeletion');
      if (!fins.includes('orphan')) fins.push('orphan');
    } else if (policy === 'Foreground') {
      fins = fins.filter((f) => f !== 'orphan');
      if (!fins.includes('foregroundDeletion')) fins.push('foregroundDeletion');
    } else if (explicit) {
      fins = fins.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
    }
    return fins;
  }

  private checkPreconditions(res: ResourceDef, o: Obj, opts: DeleteOptions): void {
    const p = opts.preconditions;
    if (!p) return;
    if (p.uid && p.uid !== o.metadata.uid) {
      throw conflict(groupResource(res), o.metadata.name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${o.metadata.uid}`);
    }
    if (p.resourceVersion && p.resourceVersion !== o.metadata.resourceVersion) {
      throw conflict(
        groupResource(res),
        o.metadata.name,
        `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${o.metadata.resourceVersion}`,
      );
    }
  }

  delete(res: ResourceDef, ns: string | undefined, name: string, opts: DeleteOptions, ctx: WriteCtx): DeleteResult {
    const old = this.get(res, ns, name);
    this.checkPreconditions(res, old, opts);
    if (res.namespaceLifecycle) return this.deleteNamespace(old, opts, ctx);
    const grace = this.gracePeriod(res, old, opts);
    const fins = this.propagationFinalizers(res, old, opts);
    const finsChanged = !deepEqual(fins, old.metadata.finalizers ?? []);
    const next = clone(old);
    next.metadata.finalizers = fins;
    if (old.metadata.deletionTimestamp) {
      const current = old.metadata.deletionGracePeriodSeconds;
      if (grace !== undefined && current !== undefined && grace < current) {
        // A shorter grace period wins (the kubelet's final delete uses 0).
        next.metadata.deletionGracePeriodSeconds = grace;
        next.metadata.deletionTimestamp = rfc3339(Date.now() + grace * 1000);
        if (grace === 0 && fins.length === 0) return this.remove(res, next, ctx);
        return { object: this.put(res, next, ctx), deleted: false };
      }
      if (finsChanged) return { object: this.put(res, next, ctx), deleted: false };
      return { object: old, deleted: false };
    }
    if (grace !== undefined && grace > 0) {
      next.metadata.deletionTimestamp = rfc3339(Date.now() + grace * 1000);
      next.metadata.deletionGracePeriodSeconds = grace;
      if (res.generation) next.metadata.generation = (old.metadata.generation ?? 1) + 1;
      return { object: this.put(res, next, ctx), deleted: false };
    }
    if (fins.length > 0) {
      next.metadata.deletionTimestamp = rfc3339();
      next.metadata.deletionGracePeriodSeconds = 0;
      if (res.generation) next.metadata.generation = (old.metadata.generation ?? 1) + 1;
      return { object: this.put(res, next, ctx), deleted: false };
    }
    return this.remove(res, next, ctx);
  }

  private put(res: ResourceDef, o: Obj, ctx: WriteCtx): Obj {
    normalize(o);
    if (ctx.dryRun) return o;
    this.store.put(res.name, o);
    return o;
  }

  private remove(res: ResourceDef, o: Obj, ctx: WriteCtx): DeleteResult {
    if (ctx.dryRun) return { object: o, deleted: true };
    const ev = this.store.remove(res.name, o);
    return { object: ev ? ev.object : o, deleted: true };
  }

  private deleteNamespace(old: Obj, opts: DeleteOptions, ctx: WriteCtx): DeleteResult {
    const res = resourceByName('namespaces')!;
    const name = old.metadata.name;
    if (IMMORTAL_NAMESPACES.includes(name)) throw forbidden(groupResource(res), name, 'this namespace may not be deleted');
    const specFins = (old.spec?.finalizers ?? []) as string[];
    if (old.metadata.deletionTimestamp) {
      if (specFins.length > 0) throw conflict(groupResource(res), name, NAMESPACE_PURGE_MESSAGE);
      return { object: old, deleted: false };
    }
    const next = clone(old);
    next.metadata.finalizers = this.propagationFinalizers(res, old, { ...opts, propagationPolicy: opts.propagationPolicy ?? undefined });
    next.metadata.deletionTimestamp = rfc3339();
    next.metadata.deletionGracePeriodSeconds = 0;
    next.status = { ...(next.status ?? {}), phase: 'Terminating' };
    if (specFins.length === 0 && (next.metadata.finalizers ?? []).length === 0) return this.remove(res, next, ctx);
    return { object: this.put(res, next, ctx), deleted: false };
  }

  /** PUT namespaces/x/finalize: the namespace controller clears spec.finalizers when the namespace is empty. */
  finalizeNamespace(name: string, body: unknown, ctx: WriteCtx): Obj {
    const res = resourceByName('namespaces')!;
    const old = this.get(res, undefined, name);
    if (!isObj(body)) throw badRequest('the body of the request is not a JSON object');
    const next = clone(old);
    next.spec = { ...(next.spec ?? {}), finalizers: [...((body.spec?.finalizers ?? []) as string[])] };
    if (next.spec.finalizers.length === 0) delete next.spec.finalizers;
    if (old.metadata.deletionTimestamp && !(next.spec.finalizers ?? []).length && !(next.metadata.finalizers ?? []).length) {
      return this.remove(res, next, ctx).object;
    }
    if (deepEqual(next, old)) return old;
    return this.put(res, next, ctx);
  }

  /** Namespaced resources, for the namespace controller. */
  namespacedResources(): ResourceDef[] {
    return RESOURCES.filter((r) => r.namespaced);
  }
}
