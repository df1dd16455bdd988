// What a sync needs from the API server, behind one interface (upstream's PodControl plus the
// ReplicaSet client and the event recorder), so the sync is tested against any implementation.
// The contract between the controller, which calls it, and the cluster adapter, which implements
// it (and the leader election's write fence): it lives below both so neither imports the other.

import type { Deployment, Controller, ControllerKind, ControllerObject, Pod, ReplicaSet } from '../core/types.js';

/** A failed API call, as the server's Status describes it (code 0: no answer). */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly reason: string,
    readonly causes: { reason?: string; message?: string; field?: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get notFound(): boolean {
    return this.code === 404 || this.reason === 'NotFound';
  }
  get invalid(): boolean {
    return this.code === 422 || this.reason === 'Invalid';
  }
  hasCause(reason: string): boolean {
    return this.causes.some((c) => c.reason === reason);
  }
}

/**
 * A write refused because this instance no longer holds the leader lease by its own clock (or
 * cut short when it stopped leading). Not a failure of the write: the controller stops at once,
 * retries nothing and logs nothing per pod (the lost lease is logged once, where it is lost).
 */
export class FencedError extends ApiError {
  constructor(message: string) {
    super(message, 0, 'LeaderElectionLost');
    this.name = 'FencedError';
  }
}

export const isFenced = (err: unknown): err is FencedError => err instanceof FencedError;

/**
 * A write refused because the user interrupted (Ctrl-C): like a lost lease it ends the sync at
 * once, with no Event and no per-pod error, so that what was written is exactly what is reported.
 */
export class InterruptedError extends FencedError {
  constructor() {
    super('interrupted: no further write was sent');
    this.name = 'InterruptedError';
  }
}

/** `api` whose writes are refused (InterruptedError) once `signal` aborts; reads and events pass. */
export function interruptible(api: ControllerAPI, signal: AbortSignal): ControllerAPI {
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      signal.aborted ? Promise.reject(new InterruptedError()) : fn(...args);
  return {
    createPod: guard(api.createPod.bind(api)),
    deletePod: guard(api.deletePod.bind(api)),
    patchPod: guard(api.patchPod.bind(api)),
    updateControllerStatus: guard(api.updateControllerStatus.bind(api)),
    getController: api.getController.bind(api),
    recordEvent: api.recordEvent.bind(api),
    flush: api.flush?.bind(api),
  };
}

/**
 * The guard every write of a leading instance passes right before it is sent: `check` throws a
 * FencedError unless the lease is still held (now - last successful renewal < renewDeadline on
 * the local monotonic clock); `signal` aborts when leading stops, cancelling whatever is queued
 * or in flight.
 */
export interface WriteFence {
  readonly signal: AbortSignal;
  check(): void;
}

export interface ControllerAPI {
  createPod(namespace: string, pod: Pod): Promise<Pod>;
  deletePod(namespace: string, name: string): Promise<void>;
  /** A strategic merge patch (the adopt / release bodies of upstream's ControllerRefManager). */
  patchPod(namespace: string, name: string, patch: object): Promise<void>;
  /** An uncached GET of the controller (canAdopt, status retry). */
  getController(kind: ControllerKind, namespace: string, name: string): Promise<ControllerObject>;
  /** PUT …/status with the object's status. */
  updateControllerStatus(kind: ControllerKind, obj: ControllerObject): Promise<ControllerObject>;
  /**
   * Records an Event on the controller. Never rejects, and a sync does not wait for it: upstream's
   * recorder is asynchronous too. `flush` waits for the events still being sent.
   */
  recordEvent(c: Controller, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void>;
  flush?(): Promise<void>;
}

/**
 * What the deployment controller's sync writes (its ReplicaSet client, ControllerRefManager's
 * patches and the Deployment status client); every write passes the same fence as the pods'.
 */
export interface DeploymentControllerAPI {
  /** A strategic merge patch of a ReplicaSet (AdoptReplicaSet / ReleaseReplicaSet). */
  patchReplicaSet(namespace: string, name: string, patch: object): Promise<ReplicaSet>;
  createReplicaSet(namespace: string, rs: ReplicaSet): Promise<ReplicaSet>;
  /** PUT with the object's resourceVersion: 409 when the server holds a newer one. */
  updateReplicaSet(namespace: string, rs: ReplicaSet): Promise<ReplicaSet>;
  deleteReplicaSet(namespace: string, name: string): Promise<void>;
  /** An uncached GET (getNewReplicaSet on AlreadyExists). */
  getReplicaSet(namespace: string, name: string): Promise<ReplicaSet>;
  /** PUT …/status with the Deployment's status (and its resourceVersion). */
  updateDeploymentStatus(namespace: string, d: Deployment): Promise<Deployment>;
  /** PUT of the Deployment with its resourceVersion (rollback's updateDeploymentAndClearRollbackTo). */
  updateDeployment(namespace: string, d: Deployment): Promise<Deployment>;
  /** Records an Event on the Deployment; as ControllerAPI.recordEvent: never rejects, not waited for. */
  recordEvent(d: Deployment, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void>;
}

type ActionKind = 'adopt' | 'release' | 'create' | 'delete' | 'status';

export interface ActionOutcome {
  action: ActionKind;
  pod?: string; // the pod's name (for create: the name the server generated)
  ok: boolean;
  code?: number; // HTTP status of a failure
  error?: string;
  note?: string; // e.g. "already gone", "namespace terminating"
  /** Why the sync's decision deletes this pod: the plan's ranking reason and sentence (deletes only). */
  reason?: { code: string; message: string };
  /** Status writes: the first PUT was refused (409 Conflict: the object changed since it was read), so it was read again and written once more. */
  retried?: { code: number; reason: string };
}
