// What `run` does with one decision of the deployment controller (decideDeployment): its writes,
// in order, on the API server, stopping at the first error (but the 409 the decision foresees
// and goes on after, which upstream swallows). The decision is made on the informer
// caches; what must stay true here:
// - nothing is decided: every request is one of decision.writes, in its order, with its body,
//   except upstream's answers to what only the server can say (a create refused: the
//   ReplicaSetCreateError condition; AlreadyExists by another's ReplicaSet: collisionCount + 1);
// - an update is sent with the resourceVersion the decision's object had (the cache's), unless
//   this sync already wrote that object: then the server's answer's (as upstream carries the
//   returned object on), so that only a write the decision calls a conflict meets a 409;
// - the created ReplicaSet is named here (<deployment>-<pod-template-hash>, core/deployment/hash.ts):
//   the decision leaves the name to the runtime, and later writes of it in the sync use that name;
// - an Event is recorded on the Deployment where upstream's eventRecorder records one: a write's
//   `event` once that write succeeded, SelectingAll for an empty selector, ReplicaSetCreateError
//   for a create the server refused; never for a write that was not sent.

import { controllerRef } from '../core/pod.js';
import { podTemplateHash, withPodTemplateHash } from '../core/deployment/hash.js';
import type { DeploymentDecision, DeploymentEvent, DeploymentWrite } from '../core/deployment/types.js';
import type { Deployment, ReplicaSet } from '../core/types.js';
import { equalIgnoreHash, hasProgressDeadline, newCondition, REASON, setCondition } from '../core/deployment/util.js';
import { formatTime } from '../core/time.js';
import { ApiError, type DeploymentControllerAPI } from '../runtime/api.js';

/** One write carried out: what was sent, and the server's answer (null: the write failed). */
export interface DeploymentWriteOutcome {
  write: DeploymentWrite;
  /** The object the request names (the created ReplicaSet by its server name). */
  target: string;
  ok: boolean;
  code?: number;
  error?: string;
  note?: string;
}

export interface DeploymentSyncResult {
  outcomes: DeploymentWriteOutcome[];
  /** The first error: the sync ends there and the key is requeued rate-limited. */
  error: Error | null;
}

const placeholderName = (d: Deployment) => `${d.metadata.name}-<pod-template-hash>`;

/** A write of one kind. */
type WriteOf<K extends DeploymentWrite['kind']> = Extract<DeploymentWrite, { kind: K }>;

/** What the writes of one sync share: the server, the Deployment read, and what this sync wrote so far. */
interface WriteContext {
  api: DeploymentControllerAPI;
  d: Deployment;
  ns: string;
  nowMs: number;
  /** The cached ReplicaSets of the namespace, by name. */
  byName: Map<string, ReplicaSet>;
  /** The resourceVersion of each ReplicaSet this sync wrote, as the server answered. */
  written: Map<string, string | undefined>;
  /** The ReplicaSet this sync created, as the server last answered. */
  created: ReplicaSet | null;
  /** The object the write in progress names: set before its request, so that a failure names it. */
  target: string;
  report: (o: DeploymentWriteOutcome) => void;
}

/** Carries out `decision.writes` for `d` (the cached Deployment the decision read) and `cached` (its namespace's ReplicaSets). */
export async function carryOutDeploymentWrites(
  api: DeploymentControllerAPI,
  d: Deployment,
  cached: readonly ReplicaSet[],
  decision: DeploymentDecision,
  onWrite?: (o: DeploymentWriteOutcome) => void,
  nowMs: number = Date.now(),
): Promise<DeploymentSyncResult> {
  const outcomes: DeploymentWriteOutcome[] = [];
  const ctx: WriteContext = {
    api,
    d,
    ns: d.metadata.namespace ?? 'default',
    nowMs,
    byName: new Map(cached.map((rs) => [rs.metadata.name, rs])),
    written: new Map(),
    created: null,
    target: '',
    report: (o) => {
      outcomes.push(o);
      onWrite?.(o);
    },
  };
  const realName = (name: string) => (ctx.created && name === placeholderName(d) ? ctx.created.metadata.name : name);
  // syncDeployment: an empty selector selects all pods; upstream warns on every sync
  if (decision.skip?.reason === 'EmptySelector') void api.recordEvent(d, 'Warning', 'SelectingAll', decision.skip.message);

  for (const [i, w] of decision.writes.entries()) {
    ctx.target = '';
    try {
      await carryOutWrite(ctx, w);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const target = ctx.target ? realName(ctx.target) : '';
      ctx.report({ write: w, target, ok: false, code: e instanceof ApiError ? e.code : undefined, error: err.message });
      // the 409 the decision foresaw, with writes after it: upstream swallowed it and went on
      if (foreseenConflict(w, e) && i < decision.writes.length - 1) continue;
      return { outcomes, error: err };
    }
  }
  return { outcomes, error: decision.error === null ? null : new Error(decision.error) };
}

/** Whether `e` is the 409 Conflict the decision says this write meets. */
function foreseenConflict(w: DeploymentWrite, e: unknown): boolean {
  return 'conflict' in w && w.conflict && e instanceof ApiError && e.code === 409 && e.reason !== 'AlreadyExists';
}

function carryOutWrite(ctx: WriteContext, w: DeploymentWrite): Promise<void> {
  switch (w.kind) {
    case 'adoptReplicaSet':
      return adoptReplicaSet(ctx, w);
    case 'releaseReplicaSet':
      return releaseReplicaSet(ctx, w);
    case 'createReplicaSet':
      return createReplicaSet(ctx, w);
    case 'updateReplicaSet':
      return updateReplicaSet(ctx, w);
    case 'deleteReplicaSet':
      return deleteReplicaSet(ctx, w);
    case 'updateDeploymentStatus':
      return updateDeploymentStatus(ctx, w);
    case 'updateDeployment':
      return updateDeployment(ctx, w);
  }
}

/** AdoptReplicaSet: the controller ownerReference patched on, guarded by the cached uid. */
async function adoptReplicaSet(ctx: WriteContext, w: WriteOf<'adoptReplicaSet'>): Promise<void> {
  const { d } = ctx;
  ctx.target = w.name;
  const rs = ctx.byName.get(w.name);
  const patch = {
    metadata: {
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name, uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }],
      uid: rs?.metadata.uid,
    },
  };
  const out = await ctx.api.patchReplicaSet(ctx.ns, w.name, patch);
  ctx.written.set(w.name, out.metadata.resourceVersion);
  ctx.report({ write: w, target: ctx.target, ok: true });
}

/** ReleaseReplicaSet: the Deployment's ownerReference patched off, guarded by the cached uid. */
async function releaseReplicaSet(ctx: WriteContext, w: WriteOf<'releaseReplicaSet'>): Promise<void> {
  ctx.target = w.name;
  const rs = ctx.byName.get(w.name);
  const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: ctx.d.metadata.uid }], uid: rs?.metadata.uid } };
  try {
    const out = await ctx.api.patchReplicaSet(ctx.ns, w.name, patch);
    ctx.written.set(w.name, out.metadata.resourceVersion);
    ctx.report({ write: w, target: ctx.target, ok: true });
  } catch (e) {
    // ReleaseReplicaSet: a ReplicaSet gone or no longer ours is released already
    if (e instanceof ApiError && (e.notFound || e.invalid)) ctx.report({ write: w, target: ctx.target, ok: true, note: 'already released' });
    else throw e;
  }
}

/** getNewReplicaSet's create: named by its pod-template-hash; a refusal or AlreadyExists answered as upstream does. */
async function createReplicaSet(ctx: WriteContext, w: WriteOf<'createReplicaSet'>): Promise<void> {
  const { d } = ctx;
  const hash = podTemplateHash(w.replicaSet.spec.template, d.status?.collisionCount);
  const body = w.hashKnown ? structuredClone(w.replicaSet) : withPodTemplateHash(w.replicaSet, d.metadata.name, hash, w.truncateName);
  ctx.target = body.metadata.name;
  // uid, creationTimestamp and resourceVersion are the server's to set
  const { uid: _uid, creationTimestamp: _ct, resourceVersion: _rv, ...metadata } = body.metadata;
  let created: ReplicaSet;
  try {
    created = await ctx.api.createReplicaSet(ctx.ns, { ...body, metadata } as ReplicaSet);
  } catch (e) {
    await createRefused(ctx, w, e);
    return;
  }
  ctx.created = created;
  ctx.report({ write: w, target: ctx.target, ok: true });
  ctx.written.set(created.metadata.name, created.metadata.resourceVersion);
  recordWriteEvent(ctx, w.event);
}

/** A write's Event, once it succeeded, naming a ReplicaSet created in this sync by its server name. */
function recordWriteEvent(ctx: WriteContext, event: DeploymentEvent | null): void {
  if (!event) return;
  const message = ctx.created ? event.message.split(placeholderName(ctx.d)).join(ctx.created.metadata.name) : event.message;
  void ctx.api.recordEvent(ctx.d, event.type, event.reason, message);
}

/** A create the server refused: the ReplicaSetCreateError condition, or AlreadyExists resolved; else the refusal is the sync's error. */
async function createRefused(ctx: WriteContext, w: WriteOf<'createReplicaSet'>, e: unknown): Promise<void> {
  const { d, ns, target } = ctx;
  const alreadyExists = e instanceof ApiError && e.code === 409 && e.reason === 'AlreadyExists';
  // getNewReplicaSet: in a terminating namespace every create fails: nothing is said. A fenced or
  // unanswered create writes nothing more either.
  if (e instanceof ApiError && e.code >= 100 && !alreadyExists && !e.hasCause('NamespaceTerminating')) {
    // a create the server refused is said in the Progressing condition (False,
    // ReplicaSetCreateError), written on the status as the sync read it (that write's own
    // failure is not the sync's error), and in a Warning Event
    const msg = `Failed to create new replica set "${target}": ${e.message}`;
    if (hasProgressDeadline(d)) {
      const failed = structuredClone(d);
      failed.status ??= {};
      setCondition(failed.status, newCondition('Progressing', 'False', REASON.FailedRSCreate, msg, formatTime(ctx.nowMs)));
      await ctx.api.updateDeploymentStatus(ns, failed).catch(() => undefined);
    }
    void ctx.api.recordEvent(d, 'Warning', REASON.FailedRSCreate, msg);
  }
  if (!alreadyExists) throw e;
  // getNewReplicaSet: ours, with this template, is the new ReplicaSet (the cache was behind);
  // anyone else's is a hash collision: collisionCount++ and try again with another name
  const existing = await ctx.api.getReplicaSet(ns, target);
  if (controllerRef(existing)?.uid === d.metadata.uid && equalIgnoreHash(existing.spec.template, d.spec.template)) {
    ctx.created = existing;
    ctx.report({ write: w, target, ok: true, note: 'already exists with this template' });
    return;
  }
  const bumped = structuredClone(d);
  bumped.status = { ...(bumped.status ?? {}), collisionCount: (d.status?.collisionCount ?? 0) + 1 };
  await ctx.api.updateDeploymentStatus(ns, bumped);
  throw new ApiError(`hash collision: ${target} exists with another template; collisionCount is now ${bumped.status.collisionCount}`, 409, 'AlreadyExists');
}

/** An update of a ReplicaSet, with the resourceVersion this sync last got for it unless the decision calls it a conflict. */
async function updateReplicaSet(ctx: WriteContext, w: WriteOf<'updateReplicaSet'>): Promise<void> {
  const { created } = ctx;
  let body: ReplicaSet;
  if (created && w.replicaSet.metadata.name === placeholderName(ctx.d)) {
    // the ReplicaSet this sync created: its server object, with the decision's size and annotations
    body = { ...structuredClone(created), spec: { ...structuredClone(created.spec), replicas: w.replicaSet.spec.replicas } };
    body.metadata.annotations = { ...(w.replicaSet.metadata.annotations ?? {}) };
  } else body = structuredClone(w.replicaSet);
  const target = body.metadata.name;
  ctx.target = target;
  if (!w.conflict && ctx.written.has(target)) body.metadata.resourceVersion = ctx.written.get(target);
  const out = await ctx.api.updateReplicaSet(ctx.ns, body);
  ctx.written.set(target, out.metadata.resourceVersion);
  if (created && created.metadata.name === target) ctx.created = out;
  ctx.report({ write: w, target, ok: true });
  recordWriteEvent(ctx, w.event);
}

/** A delete of an old ReplicaSet; one gone already is deleted. */
async function deleteReplicaSet(ctx: WriteContext, w: WriteOf<'deleteReplicaSet'>): Promise<void> {
  ctx.target = w.name;
  try {
    await ctx.api.deleteReplicaSet(ctx.ns, w.name);
    ctx.report({ write: w, target: ctx.target, ok: true });
  } catch (e) {
    if (e instanceof ApiError && e.notFound) ctx.report({ write: w, target: ctx.target, ok: true, note: 'already gone' });
    else throw e;
  }
}

/** The Deployment's status (and annotations) written, its conditions naming the created ReplicaSet by its server name. */
async function updateDeploymentStatus(ctx: WriteContext, w: WriteOf<'updateDeploymentStatus'>): Promise<void> {
  const { d, created } = ctx;
  ctx.target = d.metadata.name;
  const status = structuredClone(w.status);
  if (created) {
    // the conditions name the created ReplicaSet as the decision could not
    for (const c of status.conditions ?? []) if (c.message) c.message = c.message.split(placeholderName(d)).join(created.metadata.name);
  }
  const body: Deployment = { ...structuredClone(d), status };
  body.metadata.annotations = { ...w.annotations };
  await ctx.api.updateDeploymentStatus(ctx.ns, body);
  ctx.report({ write: w, target: ctx.target, ok: true });
}

/**
 * rollback's update of the Deployment: its Warning (the rollback given up) recorded before the
 * request, as upstream's eventRecorder records it, and DeploymentRollback once it succeeded.
 */
async function updateDeployment(ctx: WriteContext, w: WriteOf<'updateDeployment'>): Promise<void> {
  ctx.target = ctx.d.metadata.name;
  if (w.warning) void ctx.api.recordEvent(ctx.d, w.warning.type, w.warning.reason, w.warning.message);
  // the object as the sync held it: the status it carries is the server's to ignore
  await ctx.api.updateDeployment(ctx.ns, structuredClone(w.deployment));
  ctx.report({ write: w, target: ctx.target, ok: true });
  recordWriteEvent(ctx, w.event);
}
