// upstream's syncReplicaSet applied: claim (adopt / release), manage replicas (slow-start creates,
// ranked deletes), calculate and write the status, as upstream does it, through a ControllerAPI.
// The decisions come from the pure planner; this module only carries them out and reacts to
// what the API server answers.
//
// A write refused by the leader-election fence (FencedError) is no failure of the sync: it
// ends the sync at once (thrown, not returned), with no Event, no further write and no
// per-pod error; the worker drops the key, since this instance no longer leads.

import { namespaceOf } from '../core/controller.js';
import { SLOW_START_INITIAL_BATCH_SIZE } from '../core/manage.js';
import type { ClusterPlanner } from '../core/plan.js';
import { deletesOf, managesReplicas, statusAfterManageError, victimsOf, type SyncDecision } from '../core/sync-decision.js';
import { adoptPatch, podFromTemplate, releasePatch } from '../core/pod-template.js';
import { writtenStatus, type ComputedStatus } from '../core/status.js';
import type { Controller, Pod, ReplicaSetStatus, ControllerObject } from '../core/types.js';
import type { Behaviour } from '../core/versions.js';
import type { UIDTrackingControllerExpectations } from '../runtime/expectations.js';
import { ApiError, isFenced, type ActionOutcome, type ControllerAPI } from '../runtime/api.js';
import { metaNamespaceKey } from '../core/object-key.js';

const STATUS_UPDATE_RETRIES = 1;

export interface SyncDeps {
  api: ControllerAPI;
  behaviour: Behaviour;
  expectations?: UIDTrackingControllerExpectations;
  onAction?: (a: ActionOutcome) => void;
}

export interface SyncOutcome {
  key: string;
  actions: ActionOutcome[];
  /** The sync's error (claim, manage or status), as upstream returns it: retried with backoff. */
  error: Error | null;
  status: ComputedStatus | null;
  statusWritten: boolean;
  requeueAfterMs: number | null;
  skipped: 'InvalidSelector' | null;
}

function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError(err instanceof Error ? err.message : String(err), 0, 'Unknown');
}

/** slowStartBatch: batches of 1, 2, 4 … run in parallel; the first failing batch ends it. */
async function slowStartBatch(count: number, initial: number, fn: () => Promise<void>): Promise<{ successes: number; error: Error | null }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initial); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += batch - failed.length;
    if (failed.length) return { successes, error: failed[0].reason as Error };
    remaining -= batch;
  }
  return { successes, error: null };
}

class AggregateSyncError extends Error {
  constructor(readonly errors: Error[]) {
    super(errors.length === 1 ? errors[0].message : `[${errors.map((e) => e.message).join(', ')}]`);
    this.name = 'AggregateSyncError';
  }
}

/**
 * Carries out one sync decision (syncReplicaSet): the claims in order, then the planned
 * creates or the ranked deletions, then the status write. Nothing is decided again here; when
 * the API server's answers change what upstream would count (an adopted pod already gone), the
 * planner's rules are asked again for the claimed pods that resulted, at the decision's `now`.
 * The steps before (get the controller from the cache, expectations satisfied?, list the
 * candidate pods) are the caller's and the planner's: `decision.skip` carries rsNeedsSync.
 */
export async function syncController(planner: ClusterPlanner, decision: SyncDecision, deps: SyncDeps): Promise<SyncOutcome> {
  const actions: ActionOutcome[] = [];
  const record = (a: ActionOutcome) => {
    actions.push(a);
    deps.onAction?.(a);
  };
  const key = metaNamespaceKey(namespaceOf(decision.controller), decision.controller.metadata.name);
  const outcome = (o: Partial<SyncOutcome>): SyncOutcome => ({
    key,
    actions,
    error: null,
    status: null,
    statusWritten: false,
    requeueAfterMs: null,
    skipped: null,
    ...o,
  });

  // LabelSelectorAsSelector failed: nothing at all is done, not even a status write.
  if (decision.selectorError !== null) return outcome({ skipped: 'InvalidSelector' });

  const { claimed, claimErrors } = await claimPods(decision, deps, record);
  // A failed adopt or release ends the sync: no creates, no deletes, no status write (syncReplicaSet returns on a claim error).
  if (claimErrors.length) return outcome({ error: new AggregateSyncError(claimErrors) });

  const d = planner.afterClaims(decision, claimed);
  const manageError = managesReplicas(d) ? await manageReplicas(d, deps, record) : null;
  if (isFenced(manageError)) throw manageError; // no status write either

  const { status, write } = calculateStatus(d, manageError, deps.behaviour);
  if (write) {
    const statusError = await updateStatus(deps, decision.controller, status, record);
    if (statusError) return outcome({ error: statusError, status }); // a status error wins over the manage error
  }
  if (manageError) return outcome({ error: manageError, status, statusWritten: write });
  // Requeue for minReadySeconds: a pod becomes available without any event to say so.
  const requeue = d.requeueAfterSeconds;
  return outcome({ status, statusWritten: write, requeueAfterMs: requeue === null ? null : requeue * 1000 });
}

/**
 * claimPods (ClaimPods): keeps the pods owned and matching, adopts matching orphans and releases
 * owned pods that stopped matching, one by one; returns the claimed pods and the patch errors.
 */
async function claimPods(decision: SyncDecision, deps: SyncDeps, record: (a: ActionOutcome) => void): Promise<{ claimed: Pod[]; claimErrors: Error[] }> {
  const c = decision.controller;
  let adoptCheck: Promise<Error | null> | null = null;
  const canAdopt = () => (adoptCheck ??= recheckController(deps.api, c));
  const claimed: Pod[] = [];
  const claimErrors: Error[] = [];
  for (const d of decision.claims) {
    if (d.decision === 'keep') claimed.push(d.pod);
    else if (d.decision === 'adopt') {
      const blocked = await canAdopt();
      if (blocked && isFenced(blocked)) throw blocked;
      if (blocked) {
        claimErrors.push(blocked);
        record({ action: 'adopt', pod: d.pod.metadata.name, ok: false, error: blocked.message });
        continue;
      }
      const adopted = await adoptPod(c, d.pod, deps, record);
      if (adopted === true) claimed.push(d.pod);
      else if (adopted) claimErrors.push(adopted);
    } else if (d.decision === 'release') {
      const error = await releasePod(c, d.pod, deps, record);
      if (error) claimErrors.push(error);
    }
  }
  return { claimed, claimErrors };
}

/** The adopt patch: true once adopted, false for a pod already gone (not claimed, no error), else the error. */
async function adoptPod(c: Controller, pod: Pod, deps: SyncDeps, record: (a: ActionOutcome) => void): Promise<boolean | ApiError> {
  try {
    await deps.api.patchPod(namespaceOf(c), pod.metadata.name, adoptPatch(c, pod.metadata.uid));
    record({ action: 'adopt', pod: pod.metadata.name, ok: true });
    return true;
  } catch (e) {
    if (isFenced(e)) throw e;
    const err = asApiError(e);
    if (err.notFound) {
      record({ action: 'adopt', pod: pod.metadata.name, ok: true, note: 'pod already gone: not claimed' });
      return false;
    }
    record({ action: 'adopt', pod: pod.metadata.name, ok: false, code: err.code, error: err.message });
    return err;
  }
}

/** The release patch; null once released (or found released already), else the error. */
async function releasePod(c: Controller, pod: Pod, deps: SyncDeps, record: (a: ActionOutcome) => void): Promise<ApiError | null> {
  try {
    await deps.api.patchPod(namespaceOf(c), pod.metadata.name, releasePatch(c, pod.metadata.uid));
    record({ action: 'release', pod: pod.metadata.name, ok: true });
    return null;
  } catch (e) {
    if (isFenced(e)) throw e;
    const err = asApiError(e);
    // Gone, or no longer ours (Invalid: uid precondition or no such reference): released.
    if (err.notFound || err.invalid) {
      record({ action: 'release', pod: pod.metadata.name, ok: true, note: err.notFound ? 'pod already gone' : 'already released' });
      return null;
    }
    record({ action: 'release', pod: pod.metadata.name, ok: false, code: err.code, error: err.message });
    return err;
  }
}

/**
 * calculateStatus: the status of the decision, from the claimed pods as they were before this
 * sync's creates and deletes; after a manage error, the same with the ReplicaFailure condition.
 */
function calculateStatus(d: SyncDecision, manageError: Error | null, behaviour: Behaviour): { status: ComputedStatus; write: boolean } {
  return manageError ? statusAfterManageError(d, manageError.message, behaviour) : { status: d.status, write: d.statusChanged };
}

/** updateReplicaSetStatus, recorded; returns its error (null once written). */
async function updateStatus(deps: SyncDeps, c: Controller, status: ComputedStatus, record: (a: ActionOutcome) => void): Promise<ApiError | null> {
  let retried: ActionOutcome['retried'];
  const onRetry = (e: unknown) => {
    const err = asApiError(e);
    retried = { code: err.code, reason: err.reason };
  };
  try {
    await updateStatusWithRetry(deps.api, c, status, onRetry);
    record({
      action: 'status',
      ok: true,
      note: `replicas ${status.replicas}, ready ${status.readyReplicas}, available ${status.availableReplicas}`,
      ...(retried ? { retried } : {}),
    });
    return null;
  } catch (e) {
    if (isFenced(e)) throw e;
    const err = asApiError(e);
    record({ action: 'status', ok: false, code: err.code, error: err.message, ...(retried ? { retried } : {}) });
    return err;
  }
}

/** RecheckDeletionTimestamp: an uncached GET before the first adoption of a sync. */
async function recheckController(api: ControllerAPI, c: Controller): Promise<Error | null> {
  try {
    const fresh = await api.getController(c.kind, namespaceOf(c), c.metadata.name);
    if (fresh.metadata.uid !== c.metadata.uid)
      return new Error(`original ${c.kind} ${namespaceOf(c)}/${c.metadata.name} is gone: got uid ${fresh.metadata.uid}, wanted ${c.metadata.uid}`);
    if (fresh.metadata.deletionTimestamp)
      return new Error(`${metaNamespaceKey(namespaceOf(c), c.metadata.name)} has just been deleted at ${fresh.metadata.deletionTimestamp}`);
    return null;
  } catch (e) {
    return asApiError(e);
  }
}

/** manageReplicas carried out: the decision's creates in slow-start batches, or its victims. */
async function manageReplicas(d: SyncDecision, deps: SyncDeps, record: (a: ActionOutcome) => void): Promise<Error | null> {
  const c = d.controller;
  const key = metaNamespaceKey(namespaceOf(c), c.metadata.name);
  const ns = namespaceOf(c);
  const n = d.create.count;
  if (n > 0) {
    // Expect the creations before issuing any (ExpectCreations): the informer may see them first.
    deps.expectations?.expectCreations(key, n);
    const template = podFromTemplate(c);
    const { successes, error } = await slowStartBatch(n, SLOW_START_INITIAL_BATCH_SIZE, async () => {
      if (!template.ok) {
        void deps.api.recordEvent(c, 'Warning', 'FailedCreate', `Error creating: ${template.error}`);
        record({ action: 'create', ok: false, error: template.error });
        throw new Error(template.error);
      }
      try {
        const created = await deps.api.createPod(ns, template.pod);
        record({ action: 'create', pod: created.metadata.name, ok: true });
        void deps.api.recordEvent(c, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
      } catch (e) {
        if (isFenced(e)) throw e; // ends the slow start: the creates still queued are refused too
        const err = asApiError(e);
        // Nothing can be created in a terminating namespace: not an error, and no event.
        if (err.hasCause('NamespaceTerminating')) {
          record({ action: 'create', ok: true, note: 'namespace terminating: nothing to do' });
          return;
        }
        void deps.api.recordEvent(c, 'Warning', 'FailedCreate', `Error creating: ${err.message}`);
        record({ action: 'create', ok: false, code: err.code, error: err.message });
        throw err;
      }
    });
    // Pods never requested (or refused) will not be observed: lower the expectation for them.
    for (let i = successes; i < n; i++) deps.expectations?.creationObserved(key);
    return error;
  }
  const victims = victimsOf(d);
  if (victims.length > 0) {
    deps.expectations?.expectDeletions(
      key,
      victims.map((p) => metaNamespaceKey(namespaceOf(p), p.metadata.name)),
    );
    // each delete carries the ranking reason the decision gave it, for the logs and the report
    const reasons = new Map(deletesOf(d).map((v) => [v.name, { code: v.reason, message: v.message }]));
    const errors: Error[] = [];
    await Promise.all(
      victims.map(async (pod) => {
        const reason = reasons.get(pod.metadata.name);
        try {
          await deps.api.deletePod(ns, pod.metadata.name);
          record({ action: 'delete', pod: pod.metadata.name, ok: true, reason });
          void deps.api.recordEvent(c, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
        } catch (e) {
          const err = asApiError(e);
          // The informer will not observe a delete that did not happen.
          deps.expectations?.deletionObserved(key, metaNamespaceKey(namespaceOf(pod), pod.metadata.name));
          if (isFenced(e)) {
            errors.unshift(e); // returned first: the sync ends
            return;
          }
          if (err.notFound) {
            record({ action: 'delete', pod: pod.metadata.name, ok: true, note: 'already gone', reason });
            return;
          }
          void deps.api.recordEvent(c, 'Warning', 'FailedDelete', `Error deleting: ${err.message}`);
          record({ action: 'delete', pod: pod.metadata.name, ok: false, code: err.code, error: err.message, reason });
          errors.push(new Error(`unable to delete pods: ${err.message}`));
        }
      }),
    );
    return errors[0] ?? null;
  }
  return null;
}

/** The wire status: the written fields, without an empty conditions list. */
function wireStatus(s: ComputedStatus): ReplicaSetStatus {
  const { conditions, ...rest } = writtenStatus(s);
  return conditions.length ? { ...rest, conditions } : rest;
}

/** updateReplicaSetStatus: PUT …/status; on failure GET the object and try once more (`onRetry` is told why). */
async function updateStatusWithRetry(api: ControllerAPI, c: Controller, status: ComputedStatus, onRetry: (err: unknown) => void): Promise<ControllerObject> {
  let obj: ControllerObject = c.object;
  for (let i = 0; ; i++) {
    try {
      return await api.updateControllerStatus(c.kind, { ...obj, status: wireStatus(status) } as ControllerObject);
    } catch (err) {
      if (i >= STATUS_UPDATE_RETRIES || isFenced(err)) throw err;
      onRetry(err);
      obj = await api.getController(c.kind, namespaceOf(c), c.metadata.name); // a GET error wins
    }
  }
}
